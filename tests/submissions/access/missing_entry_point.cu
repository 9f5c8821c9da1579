// Example submission: the coalesced and random kernels only — kc_access_grouped, the third entry
// point of kconform_access_submission.h, is never defined. Expected: score 0, "does not define
// kc_access_grouped" (verdict: signature_error). Needs no GPU: checked in CI.
#include "kconform_access_submission.h"

__global__ void full_coalesced_access(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) C[tid] = A[tid] + B[tid];
}

__global__ void non_coalesced_access(const float* A, const float* B, float* C, unsigned int n, int repeats,
                                     unsigned long long seed) {
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  unsigned long long x = seed ^ (tid * 0x9E3779B97F4A7C15ULL);
  for (int k = 0; k < repeats; ++k) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const unsigned int index = (unsigned int)(((x >> 32) * n) >> 32);
    C[tid] = A[index] + B[index];
  }
}

kc_access_traits kc_access_submission_traits(void) {
  kc_access_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 1024;
  return t;
}

const char* kc_access_coalesced(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                cudaStream_t stream) {
  full_coalesced_access<<<(unsigned int)((n + block - 1) / block), block, 0, stream>>>(a, b, c, n, repeats);
  return NULL;
}

const char* kc_access_random(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                             unsigned long long seed, cudaStream_t stream) {
  non_coalesced_access<<<(unsigned int)((n + block - 1) / block), block, 0, stream>>>(a, b, c, (unsigned int)n,
                                                                                       repeats, seed);
  return NULL;
}
