// Example submission: a "random" kernel whose index follows the thread index. Repeat k reads
// A[(t + 32·k) mod n] — the author shifted each repeat by a warp, believing that scatters the loads;
// a warp still reads 32 consecutive floats (it stays coalesced), and the indices are t shifted, not
// random: j = (t + 32·(repeats - 1)) mod n is what C keeps. Every index is in range, so the index
// oracle passes; the spread oracle's lower tail catches it: 16 bins of [0, n) filled exactly evenly
// (chi-square ~ 0 < 1.216, which random indices fall below with probability 1e-6). That is the
// independence half of KERNELS.md §6's AC2 contract ("do not follow the thread index"); the suite's
// CPU tests plant the same map (j = t) against the spread oracle. The coalesced and grouped kernels
// are the correct ones (correct.cu).
//
// Which cases it fails: the spread oracle runs on the seed's data where each of 16 bins expects >= 50
// samples (n >= 800): the random pattern's seed-data cases at n = 1000 (R100, R1, R7), 1535, 32768,
// 65537, 1,000,003, 4,194,304 and the edge sizes; its integer cases and n < 800 pass.
// Groups (correct.cu's blocks {1024, 256, 96, 1000}): small_sizes 1 of 10 fail (n = 32768: 18),
// odd_sizes 6 of 48 (1000 at R100, R1, R7; 1535; 65537; 1,000,003: 21.88), large_sizes 4 of 22
// (12.27), configs 15 of 128 (13.24), edge_inputs 8 of 29 (3.62); sanitizer (integer data) and
// performance full: 89.01. Expected: verdict wrong_result, score 83–91 (room for the timing).
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
  (void)seed;
  for (int k = 0; k < repeats; ++k) {
    const unsigned int index = (unsigned int)((tid + 32ull * k) % n);  // bug: follows the thread index
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
