// Example submission: PolyBench/GPU's covariance (mean_kernel, reduce_kernel, covar_kernel) with its
// own bug, the suite's known-bad row CovarianceCentringQuarterGrid (kernels/polybench/covariance/
// known_bad/polybench_gpu_quarter_grid.cpp). The centring kernel runs 32 × 8 blocks on a grid whose
// row count divides n by the block's x extent (32) where its y extent (8) belongs, so only rows
// < 8·ceil(n / 32), about a quarter, are centred. The mean and the product (one thread per column
// j1, symmat[j1][j2] for j2 >= j1 and its mirror) are right; the block is their 1-D block
// (PolyBench/GPU's DIM_THREAD_BLOCK_KERNEL_1_X and _3_X, 256). Written 0-based, with the grid's
// divisions rounded up (PolyBench's float truncation, which drops a partial block, is not kept), so
// the quarter grid is its one bug. At FLOAT_N = 3214212.01 it moves symmat by ~1e-6 relative, which
// PolyBench's own 1.05% check passes; the error bound does not.
// Expected (verdict wrong_result): right exactly where the grid's 8 rows cover n (n <= 8: 1², 2², 3²
// and 1 × 1000), wrong everywhere else, the grading-only squares 32², 64², 256² included. Blocks
// {256, 128}. small_sizes 8 of 17 (9.41 of 20), odd_sizes 2 of 19 (1 × 1000: 2.63 of 25), large 0
// of 12 at 1024² (0 of 15), configs 10 of 36 (4.17 of 15), edge_inputs 20 of 72 (1.39 of 5),
// sanitizer clean (10), performance 0 (wrong at 1024²): 27.6 (measured on an H100: 27.6, every
// group as counted here; deterministic); range 24–32.
#include "kconform_covariance_submission.h"

#define DIM_THREAD_BLOCK_KERNEL_2_X 32
#define DIM_THREAD_BLOCK_KERNEL_2_Y 8

__global__ void mean_kernel(const double* data, double* mean, int m, int n, double float_n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    mean[j] = 0.0;
    for (int i = 0; i < n; i++) mean[j] += data[(size_t)i * m + j];
    mean[j] /= float_n;
  }
}

__global__ void reduce_kernel(double* data, const double* mean, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) data[(size_t)i * m + j] -= mean[j];
}

__global__ void covar_kernel(const double* data, double* symmat, int m, int n) {
  const int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m) {
    for (int j2 = j1; j2 < m; j2++) {
      double sum = 0.0;
      for (int i = 0; i < n; i++) sum += data[(size_t)i * m + j1] * data[(size_t)i * m + j2];
      symmat[(size_t)j1 * m + j2] = sum;
      symmat[(size_t)j2 * m + j1] = sum;
    }
  }
}

kc_covariance_traits kc_covariance_submission_traits(void) {
  kc_covariance_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  t.blocks[1] = 128;
  return t;
}

const char* kc_covariance(double* data, double* mean, double* symmat, int m, int n, double float_n, int block,
                          cudaStream_t stream) {
  if (block < 32 || block > 1024) return "the 1-D blocks take 32 to 1024 threads";
  const dim3 block1(block), grid1((m + block - 1) / block);
  const dim3 block2(DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y);
  // the bug: n divided by the block's x extent, where its y extent belongs
  const dim3 grid2((m + DIM_THREAD_BLOCK_KERNEL_2_X - 1) / DIM_THREAD_BLOCK_KERNEL_2_X,
                   (n + DIM_THREAD_BLOCK_KERNEL_2_X - 1) / DIM_THREAD_BLOCK_KERNEL_2_X);
  mean_kernel<<<grid1, block1, 0, stream>>>(data, mean, m, n, float_n);
  reduce_kernel<<<grid2, block2, 0, stream>>>(data, mean, m, n);
  covar_kernel<<<grid1, block1, 0, stream>>>(data, symmat, m, n);
  return nullptr;
}
