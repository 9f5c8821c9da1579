#include "grading/library_watch.hpp"

#include "grading/loaded_libraries.hpp"

// Types and the version only: the functions are found with dlsym, so a grading program that does not
// link cuBLAS does not start to.
#include <cublasLt.h>
#include <cublas_api.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

namespace kc::grading {

namespace {

struct watch_state {
  std::mutex mutex;
  bool started = false;
  std::string submission;       // as given to dlopen: dladdr's name for the submission's frames
  std::string submission_real;  // resolved, as the loaded-library lists are
  std::vector<std::string> before;
  std::vector<std::string> trusted_dirs;
  std::string cublas_path, cublaslt_path;  // the copies whose loggers report to us
  std::vector<library_finding> loaded;     // new libraries seen so far (kept after a dlclose)
  std::vector<std::pair<std::string, std::vector<std::string>>> calls;  // library path, functions
  // What the last look found, and the loader's counters and the calls' count it was found at: the
  // executor reads the watch after every call, inside the judge's timed region, and a full look
  // (every library's path resolved, a few hundred syscalls under Landlock) cost more than a
  // reduction's kernel; with nothing loaded or unloaded and no library call since, nothing changed.
  unsigned long long looked_adds = ~0ull, looked_subs = ~0ull;
  std::size_t looked_calls = ~std::size_t{0};
  std::string looked_text;
  std::size_t call_count = 0;  // every noted call, kept or not
};

// Never destroyed: the loggers can call back during static destruction.
watch_state& state() {
  static watch_state* s = new watch_state;
  return *s;
}

std::string resolved(const std::string& path) {
  char buffer[PATH_MAX];
  return realpath(path.c_str(), buffer) != nullptr ? std::string(buffer) : path;
}

std::string directory_of(const std::string& path) { return path.substr(0, path.rfind('/')); }

// Every library in the process, resolved. The program itself (no name) and the vDSO (no '/') are
// left out. Names are copied under the loader's lock and resolved after it.
std::vector<std::string> loaded_now() {
  std::vector<std::string> names;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        if (info->dlpi_name != nullptr && std::strchr(info->dlpi_name, '/') != nullptr)
          static_cast<std::vector<std::string>*>(out)->emplace_back(info->dlpi_name);
        return 0;
      },
      &names);
  for (std::string& name : names) name = resolved(name);
  return names;
}

// The loader's counters of objects ever added and removed (dl_iterate_phdr's dlpi_adds/dlpi_subs):
// equal counters mean the same set of libraries.
std::pair<unsigned long long, unsigned long long> loader_counters() {
  std::pair<unsigned long long, unsigned long long> counters{~0ull, ~0ull};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t size, void* out) {
        if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
          *static_cast<std::pair<unsigned long long, unsigned long long>*>(out) = {info->dlpi_adds, info->dlpi_subs};
        return 1;  // the counters are the same in every entry: the first is enough
      },
      &counters);
  return counters;
}

bool called_from_submission() {
  void* frames[64];
  const int depth = backtrace(frames, 64);
  const std::string& submission = state().submission;
  for (int i = 0; i < depth; ++i) {
    Dl_info info;
    if (dladdr(frames[i], &info) != 0 && info.dli_fname != nullptr && submission == info.dli_fname) return true;
  }
  return false;
}

void note_call(const std::string& library, std::string function) {
  watch_state& s = state();
  const std::lock_guard<std::mutex> lock(s.mutex);
  auto entry = std::find_if(s.calls.begin(), s.calls.end(), [&](const auto& c) { return c.first == library; });
  ++s.call_count;
  if (entry == s.calls.end()) entry = s.calls.insert(s.calls.end(), {library, {}});
  std::vector<std::string>& functions = entry->second;
  // A few names say enough; a submission calling cuBLAS per case would otherwise grow this forever.
  if (functions.size() < 6 && std::find(functions.begin(), functions.end(), function) == functions.end())
    functions.push_back(std::move(function));
}

// cuBLAS logs each call as "I! cuBLAS (v13.1.0) function cublasStatus_t cublasSgemm_v2(...) called:",
// then its arguments on lines of their own ("i! ..."): the first line names the function.
void on_cublas_message(const char* message) {
  const std::string_view text(message != nullptr ? message : "");
  const std::size_t at = text.find(" function ");
  if (!text.starts_with("I! cuBLAS") || at == std::string_view::npos || !called_from_submission()) return;
  std::string_view signature = text.substr(at + 10);
  signature = signature.substr(0, signature.find('('));
  const std::string_view name = signature.substr(signature.rfind(' ') + 1);
  note_call(state().cublas_path, name.empty() ? "a cuBLAS function" : std::string(name));
}

void on_cublaslt_message(int, const char* function, const char*) {
  if (!called_from_submission()) return;
  note_call(state().cublaslt_path, function != nullptr && *function != '\0' ? function : "a cuBLASLt function");
}

std::string path_of(void* handle) {
  link_map* map = nullptr;
  return dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr ? resolved(map->l_name) : "";
}

template <class F>
F symbol(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

// Loads (or finds already loaded) the cuBLAS this toolkit ships and turns its loggers on, with the
// output going only to the callbacks. Held for the process's life: never dlclose'd.
void hold_and_watch_cublas(watch_state& s) {
  const std::string major = std::to_string(CUBLAS_VER_MAJOR);
  if (void* blas = dlopen(("libcublas.so." + major).c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const auto set_callback = symbol<decltype(&cublasSetLoggerCallback)>(blas, "cublasSetLoggerCallback");
    const auto configure = symbol<decltype(&cublasLoggerConfigure)>(blas, "cublasLoggerConfigure");
    s.cublas_path = path_of(blas);
    if (set_callback == nullptr || configure == nullptr || set_callback(on_cublas_message) != CUBLAS_STATUS_SUCCESS ||
        configure(1, 0, 0, nullptr) != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "kconform grading: cannot watch cuBLAS calls (%s): a dlopen'ed cuBLAS goes unseen\n",
                   s.cublas_path.c_str());
  }
  if (void* lt = dlopen(("libcublasLt.so." + major).c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const auto set_file = symbol<decltype(&cublasLtLoggerSetFile)>(lt, "cublasLtLoggerSetFile");
    const auto set_mask = symbol<decltype(&cublasLtLoggerSetMask)>(lt, "cublasLtLoggerSetMask");
    const auto set_callback = symbol<decltype(&cublasLtLoggerSetCallback)>(lt, "cublasLtLoggerSetCallback");
    s.cublaslt_path = path_of(lt);
    // cuBLASLt also writes each message to its log file, stdout by default: /dev/null instead.
    FILE* nowhere = std::fopen("/dev/null", "w");
    constexpr int api_trace = 16;
    if (set_file == nullptr || set_mask == nullptr || set_callback == nullptr || nowhere == nullptr ||
        set_file(nowhere) != CUBLAS_STATUS_SUCCESS || set_callback(on_cublaslt_message) != CUBLAS_STATUS_SUCCESS ||
        set_mask(api_trace) != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "kconform grading: cannot watch cuBLASLt calls (%s): a dlopen'ed cuBLASLt goes unseen\n",
                   s.cublaslt_path.c_str());
  }
}

}  // namespace

void watch_libraries_from_here(const std::string& submission_path) {
  watch_state& s = state();
  // Named before the loggers are on: their callbacks read it.
  s.submission = submission_path;
  s.submission_real = resolved(submission_path);
  hold_and_watch_cublas(s);
  // backtrace() loads libgcc_s on its first call: make that happen before the snapshot.
  void* frame[1];
  (void)backtrace(frame, 1);
  std::vector<std::string> before = loaded_now();
  std::vector<std::string> trusted;
  for (const std::string& path : before) trusted.push_back(directory_of(path));
  if (const char* extra = std::getenv("KCONFORM_TRUSTED_LIBRARY_DIRS"); extra != nullptr) {
    const std::string dirs = extra;
    for (std::size_t start = 0; start <= dirs.size();) {
      const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
      if (colon > start) trusted.push_back(dirs.substr(start, colon - start));
      start = colon + 1;
    }
  }
  const std::lock_guard<std::mutex> lock(s.mutex);
  s.before = std::move(before);
  s.trusted_dirs = std::move(trusted);
  s.started = true;
}

std::optional<std::string> library_code_found() {
  watch_state& s = state();
  {
    const std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.started) return std::nullopt;
  }
  const auto [adds, subs] = loader_counters();
  {
    const std::lock_guard<std::mutex> lock(s.mutex);
    if (adds != ~0ull && adds == s.looked_adds && subs == s.looked_subs && s.call_count == s.looked_calls)
      return s.looked_text;
  }
  const std::vector<std::string> now = loaded_now();  // not under our lock: the loggers take it
  const std::lock_guard<std::mutex> lock(s.mutex);
  for (library_finding& f : new_library_code(s.before, now, s.submission_real, s.trusted_dirs))
    if (std::none_of(s.loaded.begin(), s.loaded.end(), [&](const library_finding& x) { return x.path == f.path; }))
      s.loaded.push_back(std::move(f));
  std::vector<library_finding> found = s.loaded;
  for (const auto& [library, functions] : s.calls) {
    std::string names;
    for (const std::string& f : functions) names += (names.empty() ? "" : ", ") + f;
    const std::string what = library_code_named(library);
    found.push_back({what.empty() ? "cuBLAS" : what, library, "called from the submission: " + names});
  }
  s.looked_text = property_text(found);
  s.looked_adds = adds;
  s.looked_subs = subs;
  s.looked_calls = s.call_count;
  return s.looked_text;
}

}  // namespace kc::grading
