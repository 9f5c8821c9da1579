// Example submission: seed 003's non_coalesced_access as written (KERNELS.md §4 AC2; the suite's
// known-bad row NonCoalescedAsWritten, kernels/access/known_bad/as_written.cu): index = curand() / NP
// with NP = 2^32 / n in an unsigned int. That is in range only when n divides 2^32: for any other n
// the 2^32 mod n largest draws give an index >= n (up to n + floor((2^32 mod n - 1) / NP)). The
// seed only ran powers of two. The launcher refuses n = 1, where NP = 2^32 truncates to 0 and the
// kernel would divide by zero (the suite's row refuses it too). The coalesced and grouped kernels
// are the correct ones (correct.cu).
//
// Which cases it fails (the last repeat's draw is the one C keeps; an index past the end reads the
// guard's NaN, which the index oracle rejects, on both inputs):
//   n = 1 (refused): 2 inputs × 4 blocks of the random pattern — 2 odd_sizes cases, 6 configs.
//   n = 1,000,003: ~222 overflowing draws per case: 2 odd_sizes, 6 configs cases.
//   edge sizes 1,048,577 (~255) and 2,796,203 (~1,820): 16 of the 29 edge_inputs cases.
//   Everywhere else the overflow is too rare to show (n = 65,537: 2^32 mod n = 1), and the seed's
//   large size 4,194,304 is a power of two: large_sizes passes, and so does performance.
// Groups (correct.cu's blocks {1024, 256, 96, 1000}; 237 cases): odd_sizes 4 of 48 fail (25 · 44/48 =
// 22.92), configs 12 of 128 (15 · 116/128 = 13.59), edge_inputs 16 of 29 (5 · 13/29 = 2.24), the rest
// full (small 20, large 15, sanitizer 10: its cases run at n <= 1535, where no draw overflows in
// practice, performance 10): 93.75.
// Expected: verdict wrong_result (refused_config too, for n = 1), score 85–95 (room for the timing).
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
                                     unsigned long long seed, unsigned int NP) {
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  curandState_t state;
  curand_init(seed, tid, 0, &state);
  for (int k = 0; k < repeats; ++k) {
    const unsigned int index = curand(&state) / NP;  // the seed's formula: >= n for the largest draws
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
  const unsigned int NP = (unsigned int)(4294967296ULL / n);  // the seed's NP = 2^32 / data_size
  if (NP == 0) return "n = 1: the seed's NP = 2^32 / n does not fit an unsigned int (it would divide by zero)";
  non_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, (unsigned int)n, repeats, seed, NP);
  return NULL;
}

const char* kc_access_grouped(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                              unsigned long long seed, cudaStream_t stream) {
  if (block % 32 != 0) return "the group is chosen per warp: block must be a multiple of 32";
  semi_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, (unsigned int)n, repeats, seed);
  return NULL;
}
