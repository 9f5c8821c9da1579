// KNOWN-BAD. Seed 000's kernel 4 reading g[i + blockDim] with no bounds check: right only when n
// is a multiple of 2·blockDim. Otherwise the last block reads past the end of its input — into the
// guard zone (a NaN canary) on the first pass, into stale values of the ping-pong buffer later.
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

__global__ void unguarded_second_load(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * blockDim.x) + tid;
  partial[tid] = (i < n ? in[i] : 0.0f) + in[i + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

}  // namespace

launch_status launch_unguarded_second_load(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  unguarded_second_load<<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("unguarded_second_load");
}

}  // namespace kc::reduction::detail
