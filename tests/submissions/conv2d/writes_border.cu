// Example submission: a "zero-padded" Conv2D: every thread inside a writes b, the stencil in the
// interior and 0 on the border, as the suite's known-bad row Conv2dWritesBorder
// (kernels/polybench/conv2d/known_bad/stencil_bugs.cu). The border belongs to the caller: it must
// keep what b held before the launch, bit for bit. PolyBench's own check compares the interior
// only, so it cannot see this; the grader poisons b and finds the zeros at every size (1×1 included).
//
// Expected (verdict: wrong_result): every value case fails, so small, odd, large, configs and edge
// score 0; the performance case is not scored (wrong at 4096²): 0. The sanitizer group is clean
// (every write is inside b, no race): 10. Total 10; 8–10 for room.
#include "kconform_conv2d_submission.h"

__global__ void Convolution(const double* a, double* b, int ni, int nj) {
  const int Col = blockDim.x * blockIdx.x + threadIdx.x;
  const int Row = blockDim.y * blockIdx.y + threadIdx.y;
  const double c11 = +0.2, c21 = +0.5, c31 = -0.8;
  const double c12 = -0.3, c22 = +0.6, c32 = -0.9;
  const double c13 = +0.4, c23 = +0.7, c33 = +0.10;
  if (Row >= ni || Col >= nj) return;
  if (Row == 0 || Col == 0 || Row == ni - 1 || Col == nj - 1) {
    b[Row * nj + Col] = 0.0;  // bug: the border is not ours to write
    return;
  }
  b[Row * nj + Col] = c11 * a[(Row - 1) * nj + (Col - 1)] + c12 * a[Row * nj + (Col - 1)] + c13 * a[(Row + 1) * nj + (Col - 1)]
                    + c21 * a[(Row - 1) * nj + Col] + c22 * a[Row * nj + Col] + c23 * a[(Row + 1) * nj + Col]
                    + c31 * a[(Row - 1) * nj + (Col + 1)] + c32 * a[Row * nj + (Col + 1)] + c33 * a[(Row + 1) * nj + (Col + 1)];
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
