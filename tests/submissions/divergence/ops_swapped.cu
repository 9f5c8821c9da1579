// Example submission: the known-bad rows WarpNoDivergenceOpsSwapped and WarpDivergenceOpsSwapped
// (kernels/access/known_bad/pattern_bugs.cu): the if / else-if chain with the branches of A − B and
// A · B swapped, in both kernels (one ladder, copied). Otherwise correct (guard, ceil grid, repeats).
// Blocks 256 (default), 32, 96, 1024.
//
// Expected (verdict: wrong_result). The swap shows wherever an element takes op 1 or 2: DV1 from
// n = 33 (warp 1 exists; n = 1, 31, 32 pass), DV2 from n = 2 (only n = 1 passes). Per group (both
// entry points, both inputs):
//   small   (n = 32, 32768 at 256: 8)        DV1 n = 32 passes: 2/8      -> 20 · 2/8   = 5.00
//   odd     (7 sizes at 256: 28)             DV1 1, 31; DV2 1: 6/28      -> 25 · 6/28  = 5.36
//   large   (n = 4194304, 5 blocks: 20)      none                        -> 0
//   configs (9 sizes × 32, 96, 1024 and the grader's 97: 144)
//                                            DV1 1, 31, 32; DV2 1: 32/144 -> 15 · 32/144 = 3.33
//   edge    (repeats 1, 7 at n = 1000: 8)    none                        -> 0
//   sanitizer: no hazard (10); performance: wrong at the size timed (0).
// Total 23.7; range 20–27.
#include "kconform_divergence_submission.h"

__global__ void warp_no_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  for (int i = 0; i < repeats; i++) {
    if ((tid / 32) % 4 == 0)
      C[tid] = A[tid] + B[tid];
    else if ((tid / 32) % 4 == 1)
      C[tid] = A[tid] * B[tid];  // bug: op 1 is A − B
    else if ((tid / 32) % 4 == 2)
      C[tid] = A[tid] - B[tid];  // bug: op 2 is A · B
    else
      C[tid] = A[tid] / B[tid];
  }
}

__global__ void warp_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  for (int i = 0; i < repeats; i++) {
    if (tid % 4 == 0)
      C[tid] = A[tid] + B[tid];
    else if (tid % 4 == 1)
      C[tid] = A[tid] * B[tid];  // bug, as above
    else if (tid % 4 == 2)
      C[tid] = A[tid] - B[tid];
    else
      C[tid] = A[tid] / B[tid];
  }
}

kc_divergence_traits kc_divergence_submission_traits(void) {
  kc_divergence_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  t.blocks[1] = 32;
  t.blocks[2] = 96;
  t.blocks[3] = 1024;
  return t;
}

const char* kc_warp_no_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                  cudaStream_t stream) {
  warp_no_divergence<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}

const char* kc_warp_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                               cudaStream_t stream) {
  warp_divergence<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}
