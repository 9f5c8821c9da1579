// Example submission: seed 003's three access kernels (KERNELS.md §4) with their index arithmetic
// fixed. The generator layout is the seed's — a per-thread cuRAND XORWOW state, curand_init(seed, t,
// 0), and for the grouped kernel one group generator per warp (subsequence t / 32, so all 32 lanes
// draw the same group) — but the seed's index r / (2^32 / n), which reaches n unless n is a power of
// two, is replaced by the multiply-high (r · n) >> 32, always in [0, n) and uniform; likewise the
// group number, drawn among the floor(n / 512) whole groups. Grid ceil(n / block), threads past n
// return (the seed ran multiples of 1024 only). Expected: full marks (verdict passed, 100).
#include "kconform_access_submission.h"

#include <curand_kernel.h>

// Salt of the group generator's seed, so the warp's group draw and a lane's index draws come from
// different streams (the suite's own layout uses the same constant).
#define GROUP_SALT 0x9E3779B97F4A7C15ULL

__device__ __forceinline__ unsigned int scale(unsigned int r, unsigned int n) {
  return (unsigned int)(((unsigned long long)r * n) >> 32);
}

__global__ void full_coalesced_access(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) C[tid] = A[tid] + B[tid];
}

__global__ void non_coalesced_access(const float* A, const float* B, float* C, unsigned int n, int repeats,
                                     unsigned long long seed) {
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  curandState_t state;
  curand_init(seed, tid, 0, &state);
  for (int k = 0; k < repeats; ++k) {
    const unsigned int index = scale(curand(&state), n);
    C[tid] = A[index] + B[index];
  }
}

__global__ void semi_coalesced_access(const float* A, const float* B, float* C, unsigned int n, int repeats,
                                      unsigned long long seed) {
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  const unsigned int group_size = 512, group_count = n / group_size;  // whole groups only
  curandState_t group_state, lane_state;
  curand_init(seed ^ GROUP_SALT, tid / 32, 0, &group_state);
  curand_init(seed, tid, 0, &lane_state);
  const unsigned int GN = scale(curand(&group_state), group_count);
  for (int k = 0; k < repeats; ++k) {
    const unsigned int index = GN * group_size + scale(curand(&lane_state), group_size);
    C[tid] = A[index] + B[index];
  }
}

kc_access_traits kc_access_submission_traits(void) {
  kc_access_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 1024;  // the seed's NTB: the default, and the one timed
  t.blocks[1] = 256;
  t.blocks[2] = 96;
  t.blocks[3] = 1000;  // not whole warps: the coalesced and random patterns only
  return t;
}

static unsigned int grid_for(size_t n, int block) { return (unsigned int)((n + block - 1) / block); }

const char* kc_access_coalesced(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                cudaStream_t stream) {
  full_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, n, repeats);
  return NULL;
}

const char* kc_access_random(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                             unsigned long long seed, cudaStream_t stream) {
  non_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, (unsigned int)n, repeats, seed);
  return NULL;
}

const char* kc_access_grouped(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                              unsigned long long seed, cudaStream_t stream) {
  if (block % 32 != 0) return "the group is chosen per warp: block must be a multiple of 32";
  semi_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, (unsigned int)n, repeats, seed);
  return NULL;
}
