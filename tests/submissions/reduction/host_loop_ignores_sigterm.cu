// Example submission (issue 19, hangs that cost seconds): the correct K3, whose launcher at n = 1000
// with block 256 ignores SIGTERM and SIGINT and spins on the host forever (no kernel runs, so the
// in-process kernel deadline never fires). The runner's per-case deadline (15 s) kills its process
// group with SIGKILL, which no handler can ignore; the rest of the group resumes in a fresh process.
// Expected: verdict timeout; one case of the odd sizes (n = 1000, block 256, its first input kind;
// the next input kind at that config hangs too, and so on — every n = 1000, block 256 case), a few
// cases of 25 points' worth of odd sizes: score 90-99.9 as for infinite_loop.cu.
#include <csignal>

#include "kconform_reduction_submission.h"

__global__ void sequential_addressing(const float* in, float* out, size_t n) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
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
  if (n == 1000 && block == 256) {  // the bug: a retry loop on the host that never gives up
    std::signal(SIGTERM, SIG_IGN);
    std::signal(SIGINT, SIG_IGN);
    for (volatile unsigned long spins = 0;; spins = spins + 1) {
    }
  }
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
