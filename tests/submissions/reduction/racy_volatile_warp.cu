// Example submission: seed 000's K5 with the classic volatile last-warp unroll and no __syncwarp().
// Under independent thread scheduling (Volta and later) the unrolled steps race; the values usually
// still come out right, so only racecheck sees it. Expected: every value check passes, the
// sanitizer group loses its racecheck cases (verdict: sanitizer).
#include "kconform_reduction_submission.h"

__device__ void warp_reduce(volatile float* partial, unsigned tid) {
  partial[tid] += partial[tid + 32];
  partial[tid] += partial[tid + 16];
  partial[tid] += partial[tid + 8];
  partial[tid] += partial[tid + 4];
  partial[tid] += partial[tid + 2];
  partial[tid] += partial[tid + 1];
}

__global__ void unrolled_last_warp(const float* in, float* out, size_t n) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x * 2 + tid;
  float x = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) x += in[i + blockDim.x];
  partial[tid] = x;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce(partial, tid);
  if (tid == 0) out[blockIdx.x] = partial[0];
}

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_PASS;
  t.min_block = 64;  // the unrolled warp reads partial[tid + 32]
  t.max_block = 1024;
  t.power_of_two_blocks = 1;
  t.block_multiple = 1;
  t.elements_per_thread = 2;
  return t;
}

const char* kc_reduction_pass(float* in, float* out, size_t n, int block, int grid, cudaStream_t stream) {
  unrolled_last_warp<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
