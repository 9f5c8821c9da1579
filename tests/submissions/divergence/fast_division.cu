// Example submission: DV1 and DV2 with the division done by __fdividef, the fast approximate
// division (a reciprocal approximation times A, up to 2 ulp off), as a student reaching for speed, or
// the effect of -use_fast_math, writes it. KERNELS.md §6 asks for IEEE values (correctly rounded
// division): the exact check compares C with the host's A / B bit for bit. No known-bad row of the
// suite carries it (its kernels divide with __fdiv_rn). Blocks 256 (default) and 1024.
//
// Expected (verdict: wrong_result). Only op 3 elements can differ: DV1 divides where (i/32) % 4 == 3,
// so n <= 96 (n = 1, 31, 32, 33) has no division and passes; DV2 divides every 4th element. On the
// host, modelling the approximation as A · RN(1/B), 26% of the integer input's quotients and 38% of
// the seed data's differ from IEEE division, so every size with hundreds of divisions (n >= 1000)
// fails; DV2 at n = 31, 32, 33 (7 or 8 divisions) fails too in that model (seed data: 12 / 13 differs;
// integers: 1 − 0.74^8 ≈ 91%), counted below as a range. Per group (both entry points, both inputs):
//   small   (n = 32, 32768 at 256: 8)        DV1 n = 32; DV2 n = 32 maybe: 2–4/8    -> 5.00–10.00
//   odd     (7 sizes at 256: 28)             DV1 1, 31, 33; DV2 1, maybe 31, 33: 8–12/28 -> 7.14–10.71
//   large   (n = 4194304, 4 blocks: 16)      none                                -> 0
//   configs (9 sizes at 1024 and the grader's 96, 97: 108)
//                                            at each block DV1 1, 31, 32, 33; DV2 1, maybe 31–33:
//                                            30–48/108 -> 4.17–6.67
//   edge    (repeats 1, 7 at n = 1000: 8)    none                                -> 0
//   sanitizer: no hazard (10); performance: wrong at the size timed (0).
// Total 26.3–37.4 (most likely ~27); range 24–39.
#include "kconform_divergence_submission.h"

__global__ void warp_no_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  for (int i = 0; i < repeats; i++) {
    if ((tid / 32) % 4 == 0)
      C[tid] = A[tid] + B[tid];
    else if ((tid / 32) % 4 == 1)
      C[tid] = A[tid] - B[tid];
    else if ((tid / 32) % 4 == 2)
      C[tid] = A[tid] * B[tid];
    else
      C[tid] = __fdividef(A[tid], B[tid]);  // bug: approximate, not IEEE division
  }
}

__global__ void warp_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  for (int i = 0; i < repeats; i++) {
    if (tid % 4 == 0)
      C[tid] = A[tid] + B[tid];
    else if (tid % 4 == 1)
      C[tid] = A[tid] - B[tid];
    else if (tid % 4 == 2)
      C[tid] = A[tid] * B[tid];
    else
      C[tid] = __fdividef(A[tid], B[tid]);  // bug, as above
  }
}

kc_divergence_traits kc_divergence_submission_traits(void) {
  kc_divergence_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  t.blocks[1] = 1024;
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
