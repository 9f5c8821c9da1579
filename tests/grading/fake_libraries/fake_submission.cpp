// Stands in for a submission's library in runtime_libraries_cpu_tests: it loads a library by a name
// it is given at run time and calls a function it looks up by name, as tests/submissions/matmul/
// cublas_dlopen.cu does, with nothing in its symbol table that names what it loads or calls.
#include <dlfcn.h>

extern "C" {

// Loads `library` and returns 0, or -1 when it does not load.
__attribute__((visibility("default"))) int fake_load(const char* library) {
  return dlopen(library, RTLD_NOW | RTLD_LOCAL) != nullptr ? 0 : -1;
}

// Loads `library` and calls its `function` as int(void**), cublasCreate_v2's shape (without a GPU it
// fails, and cuBLAS still logs the call); returns what it returned, or -1 when either is not found.
__attribute__((visibility("default"))) int fake_load_and_call(const char* library, const char* function) {
  void* loaded = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (loaded == nullptr) return -1;
  const auto call = reinterpret_cast<int (*)(void**)>(dlsym(loaded, function));
  if (call == nullptr) return -1;
  void* handle = nullptr;
  return call(&handle);
}
}
