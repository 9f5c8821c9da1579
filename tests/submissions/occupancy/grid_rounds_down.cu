// Example submission: the known-bad row VectorAddGridRoundsDown (kernels/access/known_bad/
// pattern_bugs.cu), seed 003's vector_add as the lab launched it: numBlocks = data_size / NTB and no
// guard (the lab's loop count, 1,000,000, replaced by the grader's `repeats`). The lab's sizes were
// powers of two, where that is exact; elsewhere the last n mod block elements are never written (the
// poison shows), and below one block the grid is 0 (cudaErrorInvalidConfiguration). The occupancy
// answer is right (the runtime's).
//
// Expected (verdict: wrong_result). S1's block is n up to 1024 (exact), then 1024; S2's is 32 up to
// n = 512, then bit_ceil(n) / 16. Failing: S1 at 1535 and 40000; S2 at 1 and 31 (grid 0), 33, 1000
// (block 64), 1535 (block 128) and 40000. Per group (both inputs):
//   small   (S1, 9 sizes: 18)                all: 18/18            -> 20.00
//   odd     (S1 at 1, 31, 33, 1000, 1535: 10) 1535 fails: 8/10     -> 20.00
//   large   (n >= 16384, S1 and S2: 16)      40000 fails: 12/16    -> 11.25
//   configs (S2, 14 sizes: 28)               5 sizes fail: 18/28   -> 9.64
//   edge    (7 occupancy answers)            all: 7/7              -> 5.00
//   sanitizer: the sanitized cases (n = 33 and 1000, S1 and S2) launch whole blocks inside n: clean (10)
//   performance: right at n = 65536 (64 blocks of 1024), the reference's body: ratio ~1 (10).
// Total 85.9; range 80–88.
#include "kconform_occupancy_submission.h"

__global__ void vector_add(const float* A, const float* B, float* C, int repeats) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;  // Global thread id
  for (int i = 0; i < repeats; i++) {
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

kc_occupancy_traits kc_occupancy_submission_traits(void) {
  kc_occupancy_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  return t;
}

const char* kc_vector_add(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                          cudaStream_t stream) {
  dim3 threadsPerBlock(block);
  dim3 numBlocks(static_cast<unsigned>(n / block));  // bug: rounds down
  vector_add<<<numBlocks, threadsPerBlock, 0, stream>>>(a, b, c, repeats);
  return nullptr;
}

const void* kc_vector_add_kernel(void) { return reinterpret_cast<const void*>(vector_add); }

const char* kc_occupancy_answer(int block, int* active_blocks_per_sm, int* active_warps_per_sm) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vector_add, block, 0) != cudaSuccess)
    return "cudaOccupancyMaxActiveBlocksPerMultiprocessor failed";
  *active_blocks_per_sm = blocks;
  *active_warps_per_sm = blocks * ((block + 31) / 32);
  return nullptr;
}
