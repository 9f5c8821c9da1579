// Example submission: a correct product through cuBLAS (Cᵀ = Bᵀ·Aᵀ on row-major data). Under the
// default rubric (hand_written: true) library calls score 0, flagged with the symbols the submission
// imports. Expected: every case passes, score 0 (verdict: library).
#include "kconform_matmul_submission.h"

#include <cublas_v2.h>

kc_matmul_traits kc_matmul_submission_traits(void) {
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 2;
  t.configs[0] = {16, 1};  // cuBLAS picks its own; one declared configuration
  return t;
}

const char* kc_matmul(const float* a, const float* b, float* c, int m, int n, int k, int, int, cudaStream_t stream) {
  static cublasHandle_t handle = nullptr;
  if (handle == nullptr && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return "cublasCreate failed";
  cublasSetStream(handle, stream);
  const float one = 1.0f, zero = 0.0f;
  if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n) != CUBLAS_STATUS_SUCCESS)
    return "cublasSgemm failed";
  return nullptr;
}
