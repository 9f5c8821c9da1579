// kconform access submission (seed 003's three access patterns): start here (docs/grading.md).
//
// Fill in the kernels below (TODO), delete each launcher's "not written yet" refusal, keep the traits
// true to what your launchers accept, and grade it:
//   scripts/grade.sh --family access --submission access_starter.cu
// As it stands it compiles and every entry point refuses, saying which one is not written yet.
// Read kconform_access_submission.h: what each pattern computes and how it is judged.
#include "kconform_access_submission.h"

#include <curand_kernel.h>

// TODO AC1: C[tid] = A[tid] + B[tid], `repeats` times; threads past n return.
__global__ void full_coalesced_access(const float* A, const float* B, float* C, size_t n, int repeats) {
  (void)A, (void)B, (void)C, (void)n, (void)repeats;
}

// TODO AC2: a per-thread generator (e.g. curandState_t, curand_init(seed, tid, 0, &state)); each
// repeat draws r and reads index j in [0, n) from it: C[tid] = A[j] + B[j]. Map r to [0, n) so that
// every j is in range and equally likely for ANY n (r / (2^32 / n) is neither unless n is a power of two).
__global__ void non_coalesced_access(const float* A, const float* B, float* C, unsigned int n, int repeats,
                                     unsigned long long seed) {
  (void)A, (void)B, (void)C, (void)n, (void)repeats, (void)seed;
}

// TODO AC3: floor(n / 512) whole groups of 512 floats; every lane of a warp must draw the SAME group
// (a generator shared by the warp: e.g. subsequence tid / 32), never the last partial group; each
// lane then reads random elements inside it, `repeats` times.
__global__ void semi_coalesced_access(const float* A, const float* B, float* C, unsigned int n, int repeats,
                                      unsigned long long seed) {
  (void)A, (void)B, (void)C, (void)n, (void)repeats, (void)seed;
}

kc_access_traits kc_access_submission_traits(void) {
  kc_access_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 1024;  // the seed's NTB: list your main block first (a multiple of 32): it is the one timed
  t.blocks[1] = 256;
  t.blocks[2] = 32;
  return t;
}

static unsigned int grid_for(size_t n, int block) { return (unsigned int)((n + block - 1) / block); }

const char* kc_access_coalesced(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                cudaStream_t stream) {
  return "kc_access_coalesced is not written yet (access_starter.cu)";  // TODO: delete this line
  full_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, n, repeats);
  return NULL;
}

const char* kc_access_random(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                             unsigned long long seed, cudaStream_t stream) {
  return "kc_access_random is not written yet (access_starter.cu)";  // TODO: delete this line
  non_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, (unsigned int)n, repeats, seed);
  return NULL;
}

const char* kc_access_grouped(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                              unsigned long long seed, cudaStream_t stream) {
  return "kc_access_grouped is not written yet (access_starter.cu)";  // TODO: delete this line
  semi_coalesced_access<<<grid_for(n, block), block, 0, stream>>>(a, b, c, (unsigned int)n, repeats, seed);
  return NULL;
}
