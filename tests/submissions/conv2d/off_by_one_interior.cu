// Example submission: the seed's kernel with the interior guard off by one at the far edges,
// Row <= ni - 1 && Col <= nj - 1 where Row < ni - 1 && Col < nj - 1 belongs (PolyBench's loops run
// i = 1 … NI − 2). The last row and the last column of b, both border, get written, and the last
// row's stencil reads row ni of a, one row past the end of the array. Not a known-bad row of the
// suite: its twin is Conv2dWritesBorder's border check plus memcheck's out-of-bounds read.
//
// Expected (verdict: wrong_result), per group:
//   small, odd, large, configs  every case has a written border element (ni, nj >= 2): 0
//   edge_inputs   5    only 1×1, 1×1000 and 1000×1 pass (Row > 0 or Col > 0 never holds there):
//                      3 of 9 shapes, 12 of 36 cases                                     1.67
//   sanitizer    10    racecheck and synccheck are clean; memcheck (exact-size buffers) reports
//                      the read past a at 33×65, 3×3 and 2×1000 where it leaves every
//                      allocation (a read that lands in the next one is valid memory to it):
//                      2 or 3 of 3 tools                                               6.67 or 10
//   performance  10    wrong at 4096²: not scored                                             0
// 8.3 or 11.7; 1–12.
#include "kconform_conv2d_submission.h"

__global__ void Convolution(const double* a, double* b, int ni, int nj) {
  const int Col = blockDim.x * blockIdx.x + threadIdx.x;
  const int Row = blockDim.y * blockIdx.y + threadIdx.y;
  const double c11 = +0.2, c21 = +0.5, c31 = -0.8;
  const double c12 = -0.3, c22 = +0.6, c32 = -0.9;
  const double c13 = +0.4, c23 = +0.7, c33 = +0.10;
  if (Row > 0 && Col > 0 && Row <= ni - 1 && Col <= nj - 1) {  // bug: < ni - 1 and < nj - 1
    b[Row * nj + Col] = c11 * a[(Row - 1) * nj + (Col - 1)] + c12 * a[Row * nj + (Col - 1)] + c13 * a[(Row + 1) * nj + (Col - 1)]
                      + c21 * a[(Row - 1) * nj + Col] + c22 * a[Row * nj + Col] + c23 * a[(Row + 1) * nj + Col]
                      + c31 * a[(Row - 1) * nj + (Col + 1)] + c32 * a[Row * nj + (Col + 1)] + c33 * a[(Row + 1) * nj + (Col + 1)];
  }
}

kc_conv2d_traits kc_conv2d_submission_traits(void) {
  kc_conv2d_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.configs[0] = {16, 16};
  t.configs[1] = {32, 8};
  return t;
}

const char* kc_conv2d(const double* a, double* b, int ni, int nj, int block_x, int block_y, cudaStream_t stream) {
  const dim3 threads(block_x, block_y), blocks((nj + block_x - 1) / block_x, (ni + block_y - 1) / block_y);
  Convolution<<<blocks, threads, 0, stream>>>(a, b, ni, nj);
  return nullptr;
}
