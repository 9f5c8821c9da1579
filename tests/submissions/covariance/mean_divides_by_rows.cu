// Example submission: the correct three-kernel pipeline with the mean divided by n, not FLOAT_N: the
// true mean, as a statistician writes it, ignoring the float_n the contract passes (the suite's
// known-bad row CovarianceMeanDividesByRows, kernels/polybench/covariance/known_bad/statistic_bugs.cu).
// It is right whenever FLOAT_N = n, so only the seed's FLOAT_N = 3214212.01 shows it: the other
// setting's blind spot, and why the grader runs both.
// Expected (verdict wrong_result): every FLOAT_N = n case passes, every FLOAT_N = 3214212.01 case
// fails (mean[j] = Σ x / n, not Σ x / 3214212.01: no column has a zero sum but PolyBench init's
// column 0). edge_inputs (FLOAT_N = n below 1024²) 5 of 5; small, odd, configs and large (1024²
// holds both settings: 9 of 18 cases pass, 7.5 of 15 under the fraction rule) lose the rest;
// performance 0 (timed at the seed's FLOAT_N, wrong there); sanitizer clean (10).
// Score 5 + 7.5 + 10 = 22.5; range 19–26.
#include "kconform_covariance_submission.h"

__global__ void column_means(const double* data, double* mean, int m, int n, double float_n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += data[(size_t)i * m + j];
  mean[j] = sum / n;  // the bug: n, not FLOAT_N
}

__global__ void centre(double* data, const double* mean, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) data[(size_t)i * m + j] -= mean[j];
}

// Block (bx, by) computes symmat[by·B + ty][bx·B + tx]: for each band of B observations it stages
// the band's columns by·B.. and bx·B.. and accumulates their products.
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
  t.blocks[0] = 16;  // the seed's BLOCK_SIZE: timed
  t.blocks[1] = 8;
  t.blocks[2] = 32;
  return t;
}

const char* kc_covariance(double* data, double* mean, double* symmat, int m, int n, double float_n, int block,
                          cudaStream_t stream) {
  column_means<<<(m + 255) / 256, 256, 0, stream>>>(data, mean, m, n, float_n);
  const dim3 centre_block(32, 8), centre_grid((m + 31) / 32, (n + 7) / 8);
  centre<<<centre_grid, centre_block, 0, stream>>>(data, mean, m, n);
  const dim3 threads(block, block), tiles((m + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 8: product<8><<<tiles, threads, 0, stream>>>(data, symmat, m, n); break;
    case 16: product<16><<<tiles, threads, 0, stream>>>(data, symmat, m, n); break;
    case 32: product<32><<<tiles, threads, 0, stream>>>(data, symmat, m, n); break;
    default: return "BLOCK_SIZE must be 8, 16 or 32";
  }
  return nullptr;
}
