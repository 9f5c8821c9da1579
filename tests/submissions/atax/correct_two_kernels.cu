// Example submission: a correct ATAX as two launches on the stream (stream order is the barrier the
// seed's fused kernel lacked): tmp = A·x with one thread per row, then y = Aᵀ·tmp with one thread
// per column (consecutive threads read consecutive A[i][j]: coalesced), every index checked against
// nx or ny. The scheme of the suite's AtaxTwoKernels (kernels/polybench/atax/two_kernels.cu), the
// performance reference, written anew; its first block, 256, is the reference's, so the ratio is
// about 1. Expected: full marks (verdict: passed), 27 cases per block × 4 blocks.
#include "kconform_atax_submission.h"

__global__ void a_times_x(const double* A, const double* x, double* tmp, int nx, int ny) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nx) return;
  const double* row = A + static_cast<size_t>(i) * ny;
  double sum = 0.0;
  for (int j = 0; j < ny; ++j) sum += row[j] * x[j];
  tmp[i] = sum;
}

__global__ void a_transposed_times_tmp(const double* A, const double* tmp, double* y, int nx, int ny) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= ny) return;
  double sum = 0.0;
  for (int i = 0; i < nx; ++i) sum += A[static_cast<size_t>(i) * ny + j] * tmp[i];
  y[j] = sum;
}

kc_atax_traits kc_atax_submission_traits(void) {
  kc_atax_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  t.blocks[1] = 32;
  t.blocks[2] = 96;
  t.blocks[3] = 1024;
  return t;
}

const char* kc_atax(const double* a, const double* x, double* tmp, double* y, int nx, int ny, int block,
                    cudaStream_t stream) {
  if (block < 1 || block > 1024) return "block must be 1 to 1024";
  a_times_x<<<(nx + block - 1) / block, block, 0, stream>>>(a, x, tmp, nx, ny);
  a_transposed_times_tmp<<<(ny + block - 1) / block, block, 0, stream>>>(a, tmp, y, nx, ny);
  return nullptr;
}
