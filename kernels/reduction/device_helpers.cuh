// Small device-side pieces shared by the reduction kernels.
#pragma once

#include <cstddef>

namespace kc::reduction::detail {

__device__ __forceinline__ float load_or_zero(const float* in, std::size_t i, std::size_t n) {
  return i < n ? in[i] : 0.0f;
}

// Index of the first element of this block's chunk (chunks of `chunk` elements, one per block).
__device__ __forceinline__ std::size_t chunk_start(std::size_t chunk) {
  return static_cast<std::size_t>(blockIdx.x) * chunk;
}

// Sum over a full warp with shuffles; the total ends up in lane 0.
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return v;
}

}  // namespace kc::reduction::detail
