// Conv2dSharedTile: each block stages the (block_y + 2) × (block_x + 2) tile of a its outputs read
// (its own elements and a one-element halo) in shared memory, synchronises, and computes its
// interior outputs from the tile. Not in the seed (which reads a straight from global memory); the
// classic next step for a stencil, and a kernel with shared memory for racecheck to watch (its
// twin without the barrier is the known-bad row Conv2dSharedTileNoSync).
#include "kernels/polybench/conv2d/launchers.hpp"
#include "kernels/polybench/conv2d/stencil.cuh"

namespace kc::polybench::conv2d::detail {
namespace {

__global__ void conv2d_shared_tile(const double* __restrict__ a, double* __restrict__ b, std::size_t ni,
                                   std::size_t nj) {
  extern __shared__ double tile[];  // tile[r][c] = a[row0 − 1 + r][col0 − 1 + c], row-major, tile_w wide
  const unsigned tile_w = blockDim.x + 2, tile_elements = tile_w * (blockDim.y + 2);
  const std::size_t row0 = static_cast<std::size_t>(blockIdx.y) * blockDim.y;
  const std::size_t col0 = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  // Every thread of the block loads tile elements k, k + threads, ...: the halo needs more elements
  // than the block has threads. Outside a (the halo of an edge block) the tile holds 0, which no
  // interior output reads: their neighbours are all inside a.
  for (unsigned k = threadIdx.y * blockDim.x + threadIdx.x; k < tile_elements; k += blockDim.x * blockDim.y) {
    const std::size_t r = k / tile_w, c = k % tile_w;
    const bool inside = row0 + r >= 1 && col0 + c >= 1 && row0 + r - 1 < ni && col0 + c - 1 < nj;
    tile[k] = inside ? a[(row0 + r - 1) * nj + (col0 + c - 1)] : 0.0;
  }
  __syncthreads();  // every tile element is in place before any thread reads its neighbours'
  const std::size_t row = row0 + threadIdx.y, col = col0 + threadIdx.x;
  if (!is_interior(row, col, ni, nj)) return;
  const double* up = tile + threadIdx.y * tile_w;
  b[row * nj + col] = stencil3x3<coefficients>(up, up + tile_w, up + 2 * tile_w, threadIdx.x + 1);
}

}  // namespace

const void* shared_tile_function() { return reinterpret_cast<const void*>(conv2d_shared_tile); }

launch_status launch_shared_tile(const double* a, double* b, std::size_t ni, std::size_t nj,
                                 const conv2d_config& config, cudaStream_t stream) {
  const grid_2d grid = grid_for(ni, nj, config);
  const dim3 blocks(static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y));
  const dim3 threads(static_cast<unsigned>(config.block_x), static_cast<unsigned>(config.block_y));
  const std::size_t bytes = tile_bytes(config);
  conv2d_shared_tile<<<blocks, threads, bytes, stream>>>(a, b, ni, nj);
  return launch_status::after_launch("conv2d_shared_tile");
}

}  // namespace kc::polybench::conv2d::detail
