// Example submission (issue 19, hangs that cost seconds): K3 whose tree loop never ends, at every size
// and block (s >>= 0). Each case's kernel spins until the grader's kernel deadline (10 s) ends its
// process; the run's hang budget (4 hung cases across all of its groups and sanitizer runs) then stops
// every group, so the whole submission costs about a minute of wall time, not a deadline per case.
// Expected: verdict timeout, score 0 (no case finishes; the performance case's correctness run hangs too).
#include "kconform_reduction_submission.h"

__global__ void sequential_addressing(const float* in, float* out, size_t n, unsigned spin_shift) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= spin_shift) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_PASS;
  t.min_block = 32;
  t.max_block = 1024;
  t.power_of_two_blocks = 1;
  t.block_multiple = 1;
  t.elements_per_thread = 1;
  return t;
}

const char* kc_reduction_pass(float* in, float* out, size_t n, int block, int grid, cudaStream_t stream) {
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n, 0u);  // s >>= 0: never ends
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
