// Beyond seed 000: K6 (complete unroll, block size a template parameter) and K7 (K6 plus many
// elements per thread through a grid-stride loop), after the classic continuation of the series.
#include "kernels/reduction/device_helpers.cuh"
#include "kernels/reduction/pass_kernels.hpp"

#include <array>
#include <utility>

namespace kc::reduction::detail {
namespace {

// Block-wide sum with every loop bound known at compile time. Each shared-memory step keeps the
// running value in a register and is separated from the next by a barrier; the last warp
// finishes with shuffles (no shared memory, so no intra-warp race). Result valid in thread 0.
template <unsigned Block>
__device__ __forceinline__ float block_tree_sum(float v, float* partial) {
  const unsigned tid = threadIdx.x;
  partial[tid] = v;
  __syncthreads();
#pragma unroll
  for (unsigned s = Block / 2; s > 32; s >>= 1) {  // down to 64; the last warp is handled below
    if (tid < s) partial[tid] = v = v + partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    if constexpr (Block >= 64) v += partial[tid + 32];
    v = warp_sum(v);
  }
  return v;
}

template <unsigned Block>
__global__ void __launch_bounds__(Block) complete_unroll(const float* __restrict__ in, std::size_t n,
                                                         float* __restrict__ out) {
  __shared__ float partial[Block];
  const std::size_t i = chunk_start(2 * Block) + threadIdx.x;
  const float v = block_tree_sum<Block>(load_or_zero(in, i, n) + load_or_zero(in, i + Block, n), partial);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

template <unsigned Block>
__global__ void __launch_bounds__(Block) grid_stride_unroll(const float* __restrict__ in, std::size_t n,
                                                            float* __restrict__ out) {
  __shared__ float partial[Block];
  const std::size_t stride = 2 * static_cast<std::size_t>(Block) * gridDim.x;
  float v = 0.0f;
  for (std::size_t i = chunk_start(2 * Block) + threadIdx.x; i < n; i += stride) {
    v += in[i];
    if (i + Block < n) v += in[i + Block];
  }
  v = block_tree_sum<Block>(v, partial);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

using kernel_fn = void (*)(const float*, std::size_t, float*);

// One instantiation per power-of-two block from 32 to 1024, indexed by log2(block) - 5.
template <template <unsigned> class Pick, std::size_t... Log2>
constexpr std::array<kernel_fn, sizeof...(Log2)> table(std::index_sequence<Log2...>) {
  return {Pick<(32u << Log2)>::kernel...};
}
template <unsigned Block> struct pick_complete_unroll { static constexpr kernel_fn kernel = complete_unroll<Block>; };
template <unsigned Block> struct pick_grid_stride { static constexpr kernel_fn kernel = grid_stride_unroll<Block>; };

constexpr auto complete_unroll_kernels = table<pick_complete_unroll>(std::make_index_sequence<6>{});
constexpr auto grid_stride_kernels = table<pick_grid_stride>(std::make_index_sequence<6>{});

// The instantiation for `block`, nullptr if none is built.
kernel_fn instantiation(const std::array<kernel_fn, 6>& kernels, int block) {
  for (int index = 0; index < 6; ++index)
    if ((32 << index) == block) return kernels[index];
  return nullptr;
}

launch_status launch_from(const std::array<kernel_fn, 6>& kernels, const char* name, float* in, float* out,
                          const pass_geometry& g, cudaStream_t s) {
  const kernel_fn kernel = instantiation(kernels, g.block);
  if (kernel == nullptr) return launch_status::refused(std::string(name) + " has no instantiation for block " + std::to_string(g.block));
  kernel<<<static_cast<unsigned>(g.grid), g.block, 0, s>>>(in, g.n, out);
  return launch_status::after_launch(name);
}

}  // namespace

const void* complete_unroll_function(int block) {
  return reinterpret_cast<const void*>(instantiation(complete_unroll_kernels, block));
}
const void* grid_stride_unroll_function(int block) {
  return reinterpret_cast<const void*>(instantiation(grid_stride_kernels, block));
}

launch_status launch_complete_unroll(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  return launch_from(complete_unroll_kernels, "complete_unroll", in, out, g, s);
}

launch_status launch_grid_stride_unroll(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  return launch_from(grid_stride_kernels, "grid_stride_unroll", in, out, g, s);
}

}  // namespace kc::reduction::detail
