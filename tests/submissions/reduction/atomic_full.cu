// Example submission: a correct n -> 1 reduction the per-block contract does not fit — a grid-stride
// loop, a warp-shuffle tree, one atomicAdd per block into the result. Its per-block split is not
// declared (KC_REDUCE_FULL), so only the total is checked: exactly on integer inputs, within the
// worst summation order's bound on real ones. Expected: full marks.
#include "kconform_reduction_submission.h"

__global__ void atomic_sum(const float* in, float* out, size_t n) {
  float sum = 0.0f;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ float warp_sums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) atomicAdd(out, sum);
  }
}

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_FULL;
  t.min_block = 64;  // whole warps, at least two
  t.max_block = 1024;
  t.power_of_two_blocks = 0;
  t.block_multiple = 32;
  return t;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }

const char* kc_reduction_full(float* in, float* out, size_t n, int block, float*, cudaStream_t stream) {
  if (cudaMemsetAsync(out, 0, sizeof(float), stream) != cudaSuccess) return "cudaMemsetAsync failed";
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const size_t needed = (n + block - 1) / block;
  const size_t grid = needed < static_cast<size_t>(4 * sms) ? needed : static_cast<size_t>(4 * sms);
  atomic_sum<<<static_cast<unsigned>(grid), block, 0, stream>>>(in, out, n);
  return nullptr;
}

const char* kc_reduction_pass(float*, float*, size_t, int, int, cudaStream_t) { return "a KC_REDUCE_FULL submission"; }
