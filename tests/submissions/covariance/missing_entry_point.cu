// Example submission: the seed's kernel pasted in with its traits, but no kc_covariance launcher
// around it, the entry point the contract asks for (a student who handed in the lab's file with its
// main() removed). Expected: score 0, the probe says kc_covariance is missing (verdict
// signature_error). Needs no GPU: checked in CI.
#include "kconform_covariance_submission.h"

#define BLOCK_SIZE 16

__global__ void covariance(double* data, double* mean, double* symmat, int m, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  (void)data;
  (void)mean;
  (void)symmat;
  (void)m;
  (void)n;
  (void)col;
}

kc_covariance_traits kc_covariance_submission_traits(void) {
  kc_covariance_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = BLOCK_SIZE;
  return t;
}
