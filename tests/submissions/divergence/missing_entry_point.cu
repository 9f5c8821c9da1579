// Example submission: DV1 only. It compiles, but never defines kc_warp_divergence, the contract's
// second entry point. Expected: score 0, "does not define kc_warp_divergence" (verdict:
// signature_error). Needs no GPU: checked in CI.
#include "kconform_divergence_submission.h"

__global__ void warp_no_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  const int op = static_cast<int>((tid / 32) % 4);
  for (int i = 0; i < repeats; i++)
    C[tid] = op == 0 ? A[tid] + B[tid] : op == 1 ? A[tid] - B[tid] : op == 2 ? A[tid] * B[tid] : A[tid] / B[tid];
}

kc_divergence_traits kc_divergence_submission_traits(void) {
  kc_divergence_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  return t;
}

const char* kc_warp_no_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                  cudaStream_t stream) {
  warp_no_divergence<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}
