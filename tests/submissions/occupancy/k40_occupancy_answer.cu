// Example submission: a correct vector add whose occupancy answer is the lab's Tesla K40 table,
// hard-coded: 16 blocks and 2048 threads per SM (blocks = min(16, 2048 / block)), the numbers seed
// 003 worked out for its GPU ("with 64 threads per block, 16 × 64 = 1024 threads: 50%"). On the
// grader's GPU (H100 / H200, sm_90: 32 blocks and 64 warps per SM) that is right only where the
// threads limit binds on both.
//
// Expected (verdict: wrong_result): the runtime gives 32 blocks at block 32 and 64, and 21 at 96
// (64 warps / 3); the table says 16 at all three. Right at 128 (16), 256 (8), 512 (4), 1024 (2).
//   edge (7 occupancy answers): 4/7 -> 5 · 4/7 = 2.86; every other group full (95).
// Total 97.86; range 97–98.5.
#include "kconform_occupancy_submission.h"

__global__ void vector_add(const float* A, const float* B, float* C, size_t n, int repeats) {
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
  vector_add<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}

const void* kc_vector_add_kernel(void) { return reinterpret_cast<const void*>(vector_add); }

// The lab's table for the Tesla K40 (max 16 blocks and 2048 threads per SMX).
const char* kc_occupancy_answer(int block, int* active_blocks_per_sm, int* active_warps_per_sm) {
  const int max_blocks_per_sm = 16, max_threads_per_sm = 2048;  // bug: the K40's, not this GPU's
  const int by_threads = max_threads_per_sm / block;
  *active_blocks_per_sm = by_threads < max_blocks_per_sm ? by_threads : max_blocks_per_sm;
  *active_warps_per_sm = *active_blocks_per_sm * ((block + 31) / 32);
  return nullptr;
}
