// Example submission: DV1 and DV2 with the op taken from threadIdx.x instead of the global index
// tid: op = (threadIdx.x / 32) % 4, the warp counted within the block, and op = threadIdx.x % 4; the
// elements themselves are indexed by tid (guard, ceil grid and repeats right). Each block restarts
// the op cycle at its first thread, where tid's cycle restarts only when the block is a multiple of
// 128 (DV1) or of 4 (DV2). It declares blocks 256 (default), 128 and 1024, all multiples of 128, so
// at every declared block C is exact: under contract version 1 (graded at declared blocks only) it
// scored 100. Issue 20: the grader also grades blocks 96 and 97 (divergence_submission.cpp).
//
// Expected (verdict: wrong_result). At 96 (3 whole warps, not a multiple of 128) DV1's block 1 takes
// op (t/32) % 4 where tid's is (t/32 + 3) % 4; DV2 is exact (96 % 4 = 0). At 97 both are wrong from
// element 97 on (DV1 op 0 for 3, DV2 op 0 for 1). A different op gives a different value on both
// inputs (seed data: 2i + 3, −1, (i + 1)(i + 2) and (i + 1)/(i + 2) never coincide), so a case fails
// iff n > block: n = 1000, 1535, 32768, 65537, 1000003, 4194304 fail, n = 1, 31, 32, 33 pass, at
// DV1·96, DV1·97 and DV2·97. Per group (both entry points, both inputs):
//   small   (n = 32, 32768 at 256: 8)                 none fail: 8/8      -> 20
//   odd     (7 sizes at 256: 28)                      none fail: 28/28    -> 25
//   large   (n = 4194304, blocks 256, 128, 1024, 96, 97: 20)
//                                                     3 × 2 fail: 14/20   -> 15 · 14/20   = 10.50
//   configs (9 sizes × blocks 128, 1024, 96, 97: 144) 3 × 5 sizes × 2 fail: 114/144
//                                                                         -> 15 · 114/144 = 11.875
//   edge    (repeats 1, 7 at n = 1000, block 256: 8)  none fail           -> 5
//   sanitizer: no hazard (10); performance: right at block 256, DV1's own body: ratio ~1 (10).
// Total 92.4; range 89–95.
#include "kconform_divergence_submission.h"

__global__ void warp_no_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  const unsigned op = (threadIdx.x / 32) % 4;  // bug: the warp within the block, not (tid / 32) % 4
  for (int i = 0; i < repeats; i++) {
    if (op == 0)
      C[tid] = A[tid] + B[tid];
    else if (op == 1)
      C[tid] = A[tid] - B[tid];
    else if (op == 2)
      C[tid] = A[tid] * B[tid];
    else
      C[tid] = A[tid] / B[tid];
  }
}

__global__ void warp_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  const unsigned op = threadIdx.x % 4;  // bug: the lane within the block, not tid % 4
  for (int i = 0; i < repeats; i++) {
    if (op == 0)
      C[tid] = A[tid] + B[tid];
    else if (op == 1)
      C[tid] = A[tid] - B[tid];
    else if (op == 2)
      C[tid] = A[tid] * B[tid];
    else
      C[tid] = A[tid] / B[tid];
  }
}

kc_divergence_traits kc_divergence_submission_traits(void) {
  kc_divergence_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  t.blocks[1] = 128;
  t.blocks[2] = 1024;
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
