// Seed 001: global-memory in-place reductions, corrected (KERNELS.md §2). Each block sums its
// slice of 2·blockDim elements in place in global memory (the input is destroyed, by design) and
// thread 0 writes the block's sum. The seed's versions lack the guard on which threads act in a
// step; the as-written kernels are in known_bad/seed001_as_written.cu.
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

// "Inefficient" (interleaved): at step s only threads with threadIdx.x % s == 0 act, each on
// position 2·threadIdx.x, which is then a multiple of 2s: the pairs never overlap and never leave
// the block's slice.
__global__ void global_interleaved(float* a, std::size_t n, float* c) {
  const std::size_t base = 2 * static_cast<std::size_t>(blockDim.x) * blockIdx.x;
  const std::size_t pos = base + 2 * threadIdx.x;
  for (unsigned step = 1; step < 2 * blockDim.x; step *= 2) {
    if (threadIdx.x % step == 0 && pos + step < n) a[pos] += a[pos + step];
    __syncthreads();
  }
  if (threadIdx.x == 0) c[blockIdx.x] = base < n ? a[base] : 0.0f;
}

// "Efficient" (sequential): at step s only the first s threads act, adding the cell s above.
__global__ void global_sequential(float* a, std::size_t n, float* c) {
  const std::size_t base = 2 * static_cast<std::size_t>(blockDim.x) * blockIdx.x;
  const std::size_t pos = base + threadIdx.x;
  for (unsigned step = blockDim.x; step > 0; step /= 2) {
    if (threadIdx.x < step && pos + step < n) a[pos] += a[pos + step];
    __syncthreads();
  }
  if (threadIdx.x == 0) c[blockIdx.x] = base < n ? a[base] : 0.0f;
}

}  // namespace

const void* global_interleaved_function(int) { return reinterpret_cast<const void*>(&global_interleaved); }
const void* global_sequential_function(int) { return reinterpret_cast<const void*>(&global_sequential); }

launch_status launch_global_interleaved(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  global_interleaved<<<static_cast<unsigned>(g.grid), g.block, 0, s>>>(in, g.n, out);
  return launch_status::after_launch("global_interleaved");
}

launch_status launch_global_sequential(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  global_sequential<<<static_cast<unsigned>(g.grid), g.block, 0, s>>>(in, g.n, out);
  return launch_status::after_launch("global_sequential");
}

}  // namespace kc::reduction::detail
