// Beyond seed 000: a warp-shuffle reduction built for bandwidth. Each thread reads 16-byte
// vectors (float4) through a grid-stride loop, two independent loads in flight per iteration;
// warps combine with shuffles and one shared-memory slot per warp. Chunks are 4·blockDim elements.
#include "kernels/reduction/device_helpers.cuh"
#include "kernels/reduction/pass_kernels.hpp"

#include <cstdint>

namespace kc::reduction::detail {
namespace {

// Sum of in[i .. i+3] (those below n). i is a multiple of 4, so when `in` is 16-byte aligned the
// four elements are one aligned float4.
__device__ __forceinline__ float sum_of_four(const float* __restrict__ in, std::size_t i, std::size_t n, bool vector) {
  if (vector && i + 3 < n) {
    const float4 q = __ldg(reinterpret_cast<const float4*>(in + i));
    return (q.x + q.y) + (q.z + q.w);
  }
  float v = 0.0f;
  for (std::size_t k = i; k < i + 4 && k < n; ++k) v += in[k];
  return v;
}

__global__ void warp_shuffle_sum(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  __shared__ float warp_totals[32];
  const bool vector = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const std::size_t chunk = 4 * static_cast<std::size_t>(blockDim.x);
  const std::size_t stride = chunk * gridDim.x;
  float v = 0.0f;
  for (std::size_t i = chunk_start(chunk) + 4 * threadIdx.x; i < n; i += 2 * stride) {
    const float first = sum_of_four(in, i, n, vector);
    const float second = i + stride < n ? sum_of_four(in, i + stride, n, vector) : 0.0f;
    v += first + second;
  }
  v = warp_sum(v);
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_totals[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

}  // namespace

const void* warp_shuffle_function(int) { return reinterpret_cast<const void*>(&warp_shuffle_sum); }

launch_status launch_warp_shuffle(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  warp_shuffle_sum<<<static_cast<unsigned>(g.grid), g.block, 0, s>>>(in, g.n, out);
  return launch_status::after_launch("warp_shuffle_sum");
}

}  // namespace kc::reduction::detail
