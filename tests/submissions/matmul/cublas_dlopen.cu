// Example submission: a correct product through cuBLAS that hides it from the build's symbol scan
// (issue 19 item 3). It imports no cuBLAS symbol (only dlopen and dlsym), and the library's and the
// functions' names are not among its strings: they are decoded at run time. So `nm -D` finds no
// cublas* import, and the --as-needed link in scripts/grade.sh leaves libcublas out of its DT_NEEDED.
// The grading process sees it instead (grading/library_watch.hpp): the grader holds cuBLAS before the
// submission loads, so this dlopen returns the grader's copy, and cuBLAS's logger reports each call
// with this library's code on the stack. Expected: every case passes, score 0 under the default
// rubric (hand_written: true), verdict hand_written, the report naming cuBLAS, its path and
// "called from the submission: cublasCreate_v2, cublasSetStream_v2, cublasSgemm_v2".
#include "kconform_matmul_submission.h"

#include <cublas_api.h>  // types and the version only: nothing here calls cuBLAS by name
#include <dlfcn.h>

#include <string>

namespace {

// Each character shifted up by one, decoded at run time, so neither the symbol table nor strings(1)
// shows what is loaded: "libcublas.so.", "cublasCreate_v2", "cublasSetStream_v2", "cublasSgemm_v2".
std::string decoded(const char* shifted) {
  std::string text(shifted);
  for (char& c : text) c = static_cast<char>(c - 1);
  return text;
}

using create_fn = cublasStatus_t (*)(cublasHandle_t*);
using set_stream_fn = cublasStatus_t (*)(cublasHandle_t, cudaStream_t);
using sgemm_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float*,
                                    const float*, int, const float*, int, const float*, float*, int);

struct hidden_cublas {
  cublasHandle_t handle = nullptr;
  set_stream_fn set_stream = nullptr;
  sgemm_fn sgemm = nullptr;
  const char* error = nullptr;
};

const hidden_cublas& library() {
  static const hidden_cublas found = [] {
    hidden_cublas h;
    void* lib = dlopen((decoded("mjcdvcmbt/tp/") + std::to_string(CUBLAS_VER_MAJOR)).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      h.error = "could not load the library";
      return h;
    }
    const auto create = reinterpret_cast<create_fn>(dlsym(lib, decoded("dvcmbtDsfbuf`w3").c_str()));
    h.set_stream = reinterpret_cast<set_stream_fn>(dlsym(lib, decoded("dvcmbtTfuTusfbn`w3").c_str()));
    h.sgemm = reinterpret_cast<sgemm_fn>(dlsym(lib, decoded("dvcmbtThfnn`w3").c_str()));
    if (create == nullptr || h.set_stream == nullptr || h.sgemm == nullptr) h.error = "a function is missing";
    else if (create(&h.handle) != CUBLAS_STATUS_SUCCESS) h.error = "could not create a handle";
    return h;
  }();
  return found;
}

}  // namespace

kc_matmul_traits kc_matmul_submission_traits(void) {
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 2;
  t.configs[0] = {16, 1};  // the library picks its own; one declared configuration
  return t;
}

// Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the operands swapped, no transposes.
const char* kc_matmul(const float* a, const float* b, float* c, int m, int n, int k, int, int, cudaStream_t stream) {
  const hidden_cublas& h = library();
  if (h.error != nullptr) return h.error;
  h.set_stream(h.handle, stream);
  const float one = 1.0f, zero = 0.0f;
  if (h.sgemm(h.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n) != CUBLAS_STATUS_SUCCESS)
    return "the product failed";
  return nullptr;
}
