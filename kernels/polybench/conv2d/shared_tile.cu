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
  extern __shared__ double tile[];
  load_halo_tile(tile, a, ni, nj);
  __syncthreads();  // every tile element is in place before any thread reads its neighbours'
  stencil_from_tile(tile, b, ni, nj);
}

}  // namespace

const void* shared_tile_function() { return reinterpret_cast<const void*>(conv2d_shared_tile); }

launch_status launch_shared_tile(const double* a, double* b, std::size_t ni, std::size_t nj,
                                 const conv2d_config& config, cudaStream_t stream) {
  conv2d_shared_tile<<<blocks_of(grid_for(ni, nj, config)), threads_of(config), tile_bytes(config), stream>>>(a, b, ni, nj);
  return launch_status::after_launch("conv2d_shared_tile");
}

}  // namespace kc::polybench::conv2d::detail
