// Example submission: seed 003's vector_add (DV1's body) with a guard, grid = ceil(n / block) and the
// loop count from `repeats`; its kernel named for the occupancy check; the occupancy answer from the
// CUDA runtime's own calculator (cudaOccupancyMaxActiveBlocksPerMultiprocessor), warps = blocks ·
// ceil(block / 32). Expected: every case passes, full marks (verdict: passed, 100).
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
  const size_t grid = (n + block - 1) / block;
  vector_add<<<static_cast<unsigned>(grid), block, 0, stream>>>(a, b, c, n, repeats);
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
