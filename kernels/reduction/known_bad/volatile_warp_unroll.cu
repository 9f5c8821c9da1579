// KNOWN-BAD. Seed 000's kernel 5 as classically written: the last warp reduces through a plain
// `volatile` pointer with no __syncwarp(). That relied on a warp executing in lockstep, which
// Volta's independent thread scheduling no longer guarantees: a thread may read its neighbour's
// cell before or after the neighbour updates it. On the H200 this gave the right sum in 20/20
// runs at every block size — the race is latent — so value checks cannot be relied on to catch
// it; compute-sanitizer racecheck does (a CTest test in the `sanitizer` label asserts it).
// (`vs[tid] += ...` is spelled `vs[tid] = vs[tid] + ...`: C++20 deprecates compound assignment to
// a volatile; the loads and stores are the same.)
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

__global__ void volatile_warp_unroll(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float sdata[];
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * blockDim.x) + tid;
  sdata[tid] = (i < n ? in[i] : 0.0f) + (i + blockDim.x < n ? in[i + blockDim.x] : 0.0f);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float* vs = sdata;
    vs[tid] = vs[tid] + vs[tid + 32];
    vs[tid] = vs[tid] + vs[tid + 16];
    vs[tid] = vs[tid] + vs[tid + 8];
    vs[tid] = vs[tid] + vs[tid + 4];
    vs[tid] = vs[tid] + vs[tid + 2];
    vs[tid] = vs[tid] + vs[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

}  // namespace

launch_status launch_volatile_warp_unroll(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  volatile_warp_unroll<<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("volatile_warp_unroll");
}

}  // namespace kc::reduction::detail
