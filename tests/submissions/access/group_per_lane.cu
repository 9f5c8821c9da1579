// Example submission: the grouped kernel with its group generator seeded per thread instead of per
// warp — curand_init(seed ^ GROUP_SALT, tid, 0) where the seed's design shares one sequence among the
// warp's lanes (the suite's known-bad row SemiCoalescedGroupPerLane, kernels/access/known_bad/
// pattern_bugs.cu). Each lane picks its own group, so a warp's loads spread over many groups and the
// pattern is no longer semi-coalesced, though every index is in range and uniformly spread. The
// coalesced and random kernels are the correct ones (correct.cu).
//
// Which cases it fails: the group oracle runs on the seed's data (C = 2·idx + 3 names each idx; on
// random integers only the index oracle runs) and needs two whole groups to choose from (n >= 1024:
// at n = 1000 there is one group, the same for every lane). So the grouped pattern's seed-data cases
// at n >= 1535 fail (32 lanes agreeing on one of G >= 2 groups by chance: 2^-31 at best); its
// integer cases and n = 1000 pass.
// Groups (correct.cu's blocks; the grouped pattern runs at the whole-warp ones, 1024, 256 and 96):
// small_sizes 1 of 10 fail (n = 32768: 18), odd_sizes 3 of 48 (1535, 65537, 1,000,003 at block 1024:
// 23.44), large_sizes 3 of 22 (12.95), configs 8 of 128 (14.06), edge_inputs 7 of 29 (the two edge
// sizes at 3 blocks and the overflow-seed case: 3.79); sanitizer (integer data) and performance full:
// 92.25. Expected: verdict wrong_result, score 86–94 (room for the timing).
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
  curand_init(seed ^ GROUP_SALT, tid, 0, &group_state);  // bug: one group sequence per lane, not per warp
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
