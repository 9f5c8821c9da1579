// Example submission: a BLAS-style kernel, C = alpha·A·B + beta·C with alpha = 1 and beta = 0, that
// reads C even so, launched with 1-D blocks (one thread per output, row-major order). Both are
// declared (reads_c, block_dims = 1): the grader fills C with a finite value instead of NaN poison
// and sweeps 1-D block sizes. Expected: full marks on correctness.
#include "kconform_matmul_submission.h"

__global__ void gemm_1d(const float* a, const float* b, float* c, int m, int n, int k, float alpha, float beta) {
  const size_t index = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<size_t>(m) * n) return;
  const int row = static_cast<int>(index / n), col = static_cast<int>(index % n);
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += a[static_cast<size_t>(row) * k + j] * b[static_cast<size_t>(j) * n + col];
  c[index] = alpha * sum + beta * c[index];
}

kc_matmul_traits kc_matmul_submission_traits(void) {
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 1;
  t.reads_c = 1;
  t.configs[0] = {256, 1};
  t.configs[1] = {128, 1};
  t.configs[2] = {1024, 1};
  t.configs[3] = {96, 1};
  return t;
}

const char* kc_matmul(const float* a, const float* b, float* c, int m, int n, int k, int block, int,
                      cudaStream_t stream) {
  const size_t outputs = static_cast<size_t>(m) * n;
  gemm_1d<<<static_cast<unsigned>((outputs + block - 1) / block), block, 0, stream>>>(a, b, c, m, n, k, 1.0f, 0.0f);
  return nullptr;
}
