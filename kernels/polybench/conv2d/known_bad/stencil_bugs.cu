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
  load_halo_tile(tile, a, ni, nj);
  // bug: no __syncthreads() here: a thread reads neighbours other threads may not have loaded yet
  stencil_from_tile(tile, b, ni, nj);
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
