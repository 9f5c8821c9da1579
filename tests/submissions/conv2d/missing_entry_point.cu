// Example submission: the kernel and its traits, but no kc_conv2d: the launch was left in the lab's
// main(), which a submission does not have. Expected: score 0, "does not define kc_conv2d"
// (verdict: signature_error). Needs no GPU: checked in CI.
#include "kconform_conv2d_submission.h"

__global__ void Convolution(const double* a, double* b, int ni, int nj) {
  const int Col = blockDim.x * blockIdx.x + threadIdx.x;
  const int Row = blockDim.y * blockIdx.y + threadIdx.y;
  if (Row > 0 && Col > 0 && Row < ni - 1 && Col < nj - 1)
    b[Row * nj + Col] = 0.2 * a[(Row - 1) * nj + (Col - 1)] - 0.3 * a[Row * nj + (Col - 1)] + 0.4 * a[(Row + 1) * nj + (Col - 1)]
                      + 0.5 * a[(Row - 1) * nj + Col] + 0.6 * a[Row * nj + Col] + 0.7 * a[(Row + 1) * nj + Col]
                      - 0.8 * a[(Row - 1) * nj + (Col + 1)] - 0.9 * a[Row * nj + (Col + 1)] + 0.10 * a[(Row + 1) * nj + (Col + 1)];
}

kc_conv2d_traits kc_conv2d_submission_traits(void) {
  kc_conv2d_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.configs[0] = {16, 16};
  return t;
}
