// KNOWN-BAD. Three slips of the stencil itself (none is in seed 004, whose kernel is right: see
// direct.cu); each is a mistake ports of PolyBench's 2DCONV make:
//   Conv2dWritesBorder            every thread inside a writes b: the stencil in the interior, 0 on
//                                 the border (a "zero-padded" output). PolyBench's CPU loop never
//                                 touches the border and its own check compares only the interior,
//                                 so PolyBench cannot see it; the suite requires the border back
//                                 bit for bit.
//   Conv2dCoefficientsTransposed  c12 and c21 swapped (c12 = +0.5 multiplies a[i][j−1], c21 = −0.3
//                                 multiplies a[i−1][j]): reading KERNELS.md's cRC as row R, column C
//                                 instead of column offset R, row offset C. Right wherever
//                                 a[i][j−1] = a[i−1][j] (a constant input, say).
//   Conv2dSharedTileNoSync        the shared-tile kernel (shared_tile.cu) without its barrier: a
//                                 thread reads tile elements other warps may not have stored yet.
//                                 Often right on a GPU that runs the block's warps in lockstep-ish
//                                 order; compute-sanitizer racecheck reports the read-after-write
//                                 hazard on the tile whatever the values.
#include "kernels/polybench/conv2d/launchers.hpp"
#include "kernels/polybench/conv2d/stencil.cuh"

namespace kc::polybench::conv2d::detail {
namespace {

struct transposed_coefficients : coefficients {
  static constexpr double c12 = coefficients::c21;  // +0.5 where −0.3 belongs
  static constexpr double c21 = coefficients::c12;  // −0.3 where +0.5 belongs
};

__global__ void conv2d_writes_border(const double* __restrict__ a, double* __restrict__ b, std::size_t ni,
                                     std::size_t nj) {
  const std::size_t col = thread_col(), row = thread_row();
  if (row >= ni || col >= nj) return;
  if (!is_interior(row, col, ni, nj)) {
    b[row * nj + col] = 0.0;  // bug: the border belongs to the caller
    return;
  }
  const double* mid = a + row * nj;
  b[row * nj + col] = stencil3x3<coefficients>(mid - nj, mid, mid + nj, col);
}

__global__ void conv2d_coefficients_transposed(const double* __restrict__ a, double* __restrict__ b, std::size_t ni,
                                               std::size_t nj) {
  const std::size_t col = thread_col(), row = thread_row();
  if (!is_interior(row, col, ni, nj)) return;
  const double* mid = a + row * nj;
  b[row * nj + col] = stencil3x3<transposed_coefficients>(mid - nj, mid, mid + nj, col);
}

__global__ void conv2d_shared_tile_no_sync(const double* __restrict__ a, double* __restrict__ b, std::size_t ni,
                                           std::size_t nj) {
  extern __shared__ double tile[];
  const unsigned tile_w = blockDim.x + 2, tile_elements = tile_w * (blockDim.y + 2);
  const std::size_t row0 = static_cast<std::size_t>(blockIdx.y) * blockDim.y;
  const std::size_t col0 = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  for (unsigned k = threadIdx.y * blockDim.x + threadIdx.x; k < tile_elements; k += blockDim.x * blockDim.y) {
    const std::size_t r = k / tile_w, c = k % tile_w;
    const bool inside = row0 + r >= 1 && col0 + c >= 1 && row0 + r - 1 < ni && col0 + c - 1 < nj;
    tile[k] = inside ? a[(row0 + r - 1) * nj + (col0 + c - 1)] : 0.0;
  }
  // bug: no __syncthreads() here
  const std::size_t row = row0 + threadIdx.y, col = col0 + threadIdx.x;
  if (!is_interior(row, col, ni, nj)) return;
  const double* up = tile + threadIdx.y * tile_w;
  b[row * nj + col] = stencil3x3<coefficients>(up, up + tile_w, up + 2 * tile_w, threadIdx.x + 1);
}

dim3 blocks_of(const grid_2d& grid) { return dim3(static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y)); }
dim3 threads_of(const conv2d_config& config) {
  return dim3(static_cast<unsigned>(config.block_x), static_cast<unsigned>(config.block_y));
}

}  // namespace

launch_status launch_writes_border(const double* a, double* b, std::size_t ni, std::size_t nj,
                                   const conv2d_config& config, cudaStream_t stream) {
  conv2d_writes_border<<<blocks_of(grid_for(ni, nj, config)), threads_of(config), 0, stream>>>(a, b, ni, nj);
  return launch_status::after_launch("conv2d (writes the border)");
}

launch_status launch_coefficients_transposed(const double* a, double* b, std::size_t ni, std::size_t nj,
                                             const conv2d_config& config, cudaStream_t stream) {
  conv2d_coefficients_transposed<<<blocks_of(grid_for(ni, nj, config)), threads_of(config), 0, stream>>>(a, b, ni, nj);
  return launch_status::after_launch("conv2d (c12 and c21 transposed)");
}

launch_status launch_shared_tile_no_sync(const double* a, double* b, std::size_t ni, std::size_t nj,
                                         const conv2d_config& config, cudaStream_t stream) {
  conv2d_shared_tile_no_sync<<<blocks_of(grid_for(ni, nj, config)), threads_of(config), tile_bytes(config), stream>>>(
      a, b, ni, nj);
  return launch_status::after_launch("conv2d_shared_tile (no __syncthreads)");
}

}  // namespace kc::polybench::conv2d::detail
