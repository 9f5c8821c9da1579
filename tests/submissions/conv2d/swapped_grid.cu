// Example submission: PolyBench/GPU's own Conv2D launch (2DConvolution.cu, convolution2DCuda:
// grid(ceil(NI / block.x), ceil(NJ / block.y))) around a kernel that takes columns from x and rows
// from y, as the suite's known-bad row Conv2dGridSwapped (kernels/polybench/conv2d/known_bad/
// grid_bugs.cpp). Columns past ceil(ni / bx)·bx and rows past ceil(nj / by)·by get no thread: their
// interior points keep the poison. Square sizes (the only ones PolyBench/GPU and seed 004 ran) hide it.
// Blocks: 32×8 (PolyBench/GPU's, first) and 16×16.
//
// Expected (verdict: wrong_result), worked out per group from which sizes lose a point
// (a size fails when nj − 2 >= ceil(ni/bx)·bx or ni − 2 >= ceil(nj/by)·by):
//   small_sizes  20    the aligned squares at 32×8: all pass                          20
//   odd_sizes    25    at 32×8, 65×33, 4096×17, 17×4096 fail; 4×4, 18×18, 33×65,
//                      97×101 pass: 8 of 14 cases                                     14.29
//   large_sizes  15    4096² passes at both blocks                                    15
//   configs      15    at 16×16, 33×65, 65×33, 4096×17, 17×4096 fail: 16 of 24        10
//   edge_inputs   5    3×1000 and 1000×3 fail at both blocks: 28 of 36                 3.89
//   sanitizer    10    no access out of bounds, no race                               10
//   performance  10    the direct kernel at 32×8, right at 4096²: ratio about 1      ~10
// About 83; 72–86 leaves the performance ratio room.
#include "kconform_conv2d_submission.h"

__global__ void convolution2D_kernel(const double* A, double* B, int ni, int nj) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const double c11 = +0.2, c21 = +0.5, c31 = -0.8;
  const double c12 = -0.3, c22 = +0.6, c32 = -0.9;
  const double c13 = +0.4, c23 = +0.7, c33 = +0.10;
  if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0) {
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] + c31 * A[(i - 1) * nj + (j + 1)]
                  + c12 * A[(i + 0) * nj + (j - 1)] + c22 * A[(i + 0) * nj + (j + 0)] + c32 * A[(i + 0) * nj + (j + 1)]
                  + c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + (j + 0)] + c33 * A[(i + 1) * nj + (j + 1)];
  }
}

kc_conv2d_traits kc_conv2d_submission_traits(void) {
  kc_conv2d_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.configs[0] = {32, 8};
  t.configs[1] = {16, 16};
  return t;
}

const char* kc_conv2d(const double* a, double* b, int ni, int nj, int block_x, int block_y, cudaStream_t stream) {
  const dim3 block(block_x, block_y);
  // bug: x counts columns in the kernel, but the grid's x extent comes from NI (and y from NJ)
  const dim3 grid((ni + block_x - 1) / block_x, (nj + block_y - 1) / block_y);
  convolution2D_kernel<<<grid, block, 0, stream>>>(a, b, ni, nj);
  return nullptr;
}
