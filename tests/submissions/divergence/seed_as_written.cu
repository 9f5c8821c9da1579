// Example submission: seed 003's warp_no_divergence and warp_divergence as the lab wrote them: no
// guard, the loop of 100 fixed, unsigned tid, and the lab's launch numBlocks = data_size / NTB, with
// only the glue the contract needs (the launchers). The lab ran n = 4194304 with NTB = 1024, where
// that is exact; at any n that is not a multiple of the block the last n mod block elements are never
// written (the poison shows), and below one block the grid is 0 (cudaErrorInvalidConfiguration).
// Blocks 1024 (the lab's), 256 and 32; the grader adds 96 and 97, which divide no swept size.
//
// Expected (verdict: wrong_result). A case passes iff block divides n and n >= block. Per group
// (both entry points, both inputs):
//   small   (n = 32, 32768 at 1024: 8)        n = 32768: 4/8                -> 10.00
//   odd     (7 sizes at 1024: 28)             none                          -> 0
//   large   (n = 4194304, 5 blocks: 20)       1024, 256, 32: 12/20          -> 9.00
//   configs (9 sizes × blocks 256, 32 and the grader's 96, 97: 144)
//                                             256: 32768; 32: 32, 32768: 12/144 -> 1.25
//   edge    (repeats 1, 7 at n = 1000: 8)     none (grid 0)                 -> 0
//   performance: right at n = 4194304, block 1024, but the loop of 100 is fixed: timed at one repeat
//   as well (contract version 2), it does 100 times the reference's work, ratio far past 3 -> 0
//   (at 100 repeats alone the ratio was ~1, 10 points).
//   sanitizer: the sanitized cases (n = 33 at every block, n = 1000 at 1024) include grid-0 launches,
//   which compute-sanitizer reports as "Program hit cudaErrorInvalidConfiguration" (an API error, on
//   by default): memcheck at least is not clean (0–10).
// Total 20.25–30.25; range 18–32. Measured on an H100 (15fb587): 26.92 (sanitizer 6.67). Before
// the grader's blocks and the one-repeat timing (contract version 1): 37.5–47.5, measured 44.17.
#include "kconform_divergence_submission.h"

__global__ void warp_no_divergence(float* A, float* B, float* C)  // the lab's signature
{
  unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;  // Global thread id
  for (unsigned int i = 0; i < 100; i++) {
    if ((tid / 32) % 4 == 0)
      C[tid] = A[tid] + B[tid];
    else if ((tid / 32) % 4 == 1)
      C[tid] = A[tid] - B[tid];
    else if ((tid / 32) % 4 == 2)
      C[tid] = A[tid] * B[tid];
    else if ((tid / 32) % 4 == 3)
      C[tid] = A[tid] / B[tid];
  }
}

__global__ void warp_divergence(float* A, float* B, float* C) {
  unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
  for (unsigned int i = 0; i < 100; i++) {
    if (tid % 4 == 0)
      C[tid] = A[tid] + B[tid];
    else if (tid % 4 == 1)
      C[tid] = A[tid] - B[tid];
    else if (tid % 4 == 2)
      C[tid] = A[tid] * B[tid];
    else if (tid % 4 == 3)
      C[tid] = A[tid] / B[tid];
  }
}

kc_divergence_traits kc_divergence_submission_traits(void) {
  kc_divergence_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 1024;
  t.blocks[1] = 256;
  t.blocks[2] = 32;
  return t;
}

// The glue: the lab's launch, with its NTB and data_size from the grader.
const char* kc_warp_no_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                  cudaStream_t stream) {
  (void)repeats;  // the lab's loop count is fixed at 100
  dim3 threadsPerBlock(block);
  dim3 numBlocks(static_cast<unsigned>(n / block));
  warp_no_divergence<<<numBlocks, threadsPerBlock, 0, stream>>>(const_cast<float*>(a), const_cast<float*>(b), c);
  return nullptr;
}

const char* kc_warp_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                               cudaStream_t stream) {
  (void)repeats;
  dim3 threadsPerBlock(block);
  dim3 numBlocks(static_cast<unsigned>(n / block));
  warp_divergence<<<numBlocks, threadsPerBlock, 0, stream>>>(const_cast<float*>(a), const_cast<float*>(b), c);
  return nullptr;
}
