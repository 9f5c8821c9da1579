// Seed 000, kernels 1 and 2: interleaved addressing (KERNELS.md §1).
// One element per thread; the block's values are combined pairwise at strides 1, 2, 4, ...
// Both need a power-of-two block (tid + s stays inside the block only then).
#include "kernels/reduction/device_helpers.cuh"
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

// K1: the active threads are those with tid % (2s) == 0 — every warp stays partly active for
// most steps (divergence), which is what the report measured.
__global__ void interleaved_divergent(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  partial[tid] = load_or_zero(in, chunk_start(blockDim.x) + tid, n);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// K2: the first blockDim/(2s) threads act, each on index 2·s·tid: no divergence, but the strided
// shared-memory accesses conflict on banks.
__global__ void interleaved_strided(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  partial[tid] = load_or_zero(in, chunk_start(blockDim.x) + tid, n);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) partial[index] += partial[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

}  // namespace

const void* interleaved_divergent_function(int) { return reinterpret_cast<const void*>(&interleaved_divergent); }
const void* interleaved_strided_function(int) { return reinterpret_cast<const void*>(&interleaved_strided); }

launch_status launch_interleaved_divergent(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  interleaved_divergent<<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("interleaved_divergent");
}

launch_status launch_interleaved_strided(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  interleaved_strided<<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("interleaved_strided");
}

}  // namespace kc::reduction::detail
