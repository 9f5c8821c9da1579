// Example submission: seed 003's warp_no_divergence and warp_divergence as the lab writes them (the
// if / else-if chain over (tid/32) % 4 and tid % 4, the repeat loop), with what the lab's fixed-size
// program did not need: a guard tid < n, grid = ceil(n / block), and the loop count from `repeats`.
// Blocks 1024 (the lab's NTB, the default and the one timed), 32, 96 and 256.
// Expected: every case passes, full marks (verdict: passed, 100).
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
      C[tid] = A[tid] - B[tid];
    else if (tid % 4 == 2)
      C[tid] = A[tid] * B[tid];
    else
      C[tid] = A[tid] / B[tid];
  }
}

kc_divergence_traits kc_divergence_submission_traits(void) {
  kc_divergence_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 1024;
  t.blocks[1] = 32;
  t.blocks[2] = 96;
  t.blocks[3] = 256;
  return t;
}

const char* kc_warp_no_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                  cudaStream_t stream) {
  const size_t grid = (n + block - 1) / block;
  warp_no_divergence<<<static_cast<unsigned>(grid), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}

const char* kc_warp_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                               cudaStream_t stream) {
  const size_t grid = (n + block - 1) / block;
  warp_divergence<<<static_cast<unsigned>(grid), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}
