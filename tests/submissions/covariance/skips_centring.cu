// Example submission: the three-kernel pipeline with its centring kernel never launched (the seed's
// centring bug alone: its centring loop never runs), the suite's known-bad row CovarianceSkipsCentring
// (kernels/polybench/covariance/known_bad/statistic_bugs.cu). symmat is the uncentred product, off by
// mean_j1·mean_j2·(2·FLOAT_N − n). PolyBench's own 1.05% check catches that only at FLOAT_N = n; at
// the seed's FLOAT_N = 3214212.01 it is 2 / FLOAT_N = 6e-7 relative at n = 1 (about 3n / (2·FLOAT_N)
// at larger n), far inside PolyBench's threshold and far outside the suite's error bound: the grader
// catches it in both settings, from the first case (1 × 1).
// Expected (verdict wrong_result): no value case passes (a column with a non-zero mean in every
// input: uniform data, and PolyBench's init whose column 0 alone is zero), so small, odd, large,
// configs and edge all score 0; wrong at the size timed, so performance 0; the sanitizer group is
// clean (10). Score 10; range 8–12.
#include "kconform_covariance_submission.h"

__global__ void column_means(const double* data, double* mean, int m, int n, double float_n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += data[(size_t)i * m + j];
  mean[j] = sum / float_n;
}

__global__ void centre(double* data, const double* mean, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) data[(size_t)i * m + j] -= mean[j];
}

template <int B>
__global__ void product(const double* data, double* symmat, int m, int n) {
  __shared__ double rows_tile[B][B];
  __shared__ double cols_tile[B][B];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j1 = blockIdx.y * B + ty, j2 = blockIdx.x * B + tx;
  const int j1_load = blockIdx.y * B + tx;
  double sum = 0.0;
  for (int band = 0; band < n; band += B) {
    const int i = band + ty;
    rows_tile[ty][tx] = i < n && j1_load < m ? data[(size_t)i * m + j1_load] : 0.0;
    cols_tile[ty][tx] = i < n && j2 < m ? data[(size_t)i * m + j2] : 0.0;
    __syncthreads();
    for (int k = 0; k < B; ++k) sum += rows_tile[k][ty] * cols_tile[k][tx];
    __syncthreads();
  }
  if (j1 < m && j2 < m) symmat[(size_t)j1 * m + j2] = sum;
}

kc_covariance_traits kc_covariance_submission_traits(void) {
  kc_covariance_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 16;
  t.blocks[1] = 8;
  t.blocks[2] = 32;
  return t;
}

const char* kc_covariance(double* data, double* mean, double* symmat, int m, int n, double float_n, int block,
                          cudaStream_t stream) {
  column_means<<<(m + 255) / 256, 256, 0, stream>>>(data, mean, m, n, float_n);
  // the bug: centre<<<...>>>(data, mean, m, n) is never launched
  const dim3 threads(block, block), tiles((m + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 8: product<8><<<tiles, threads, 0, stream>>>(data, symmat, m, n); break;
    case 16: product<16><<<tiles, threads, 0, stream>>>(data, symmat, m, n); break;
    case 32: product<32><<<tiles, threads, 0, stream>>>(data, symmat, m, n); break;
    default: return "BLOCK_SIZE must be 8, 16 or 32";
  }
  return nullptr;
}
