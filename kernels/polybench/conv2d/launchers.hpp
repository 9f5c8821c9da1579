// The conv2d launch functions, one per registry row. Each is called by launch() after validate()
// accepted (ni, nj, config), computes its grid, launches on `stream`, and reports
// cudaGetLastError(). Correct kernels: direct.cu, shared_tile.cu; known-bad rows: known_bad/.
#pragma once

#include "kernels/polybench/conv2d/conv2d.hpp"

namespace kc::polybench::conv2d::detail {

#define KC_CONV2D_LAUNCHER(name)                                                                              \
  launch_status name(const double* a, double* b, std::size_t ni, std::size_t nj, const conv2d_config& config, \
                     cudaStream_t stream)

// direct.cu
KC_CONV2D_LAUNCHER(launch_direct);
// shared_tile.cu
KC_CONV2D_LAUNCHER(launch_shared_tile);
// known_bad/grid_bugs.cpp
KC_CONV2D_LAUNCHER(launch_grid_from_ni_both_dims);
KC_CONV2D_LAUNCHER(launch_grid_swapped);
// known_bad/stencil_bugs.cu
KC_CONV2D_LAUNCHER(launch_writes_border);
KC_CONV2D_LAUNCHER(launch_coefficients_transposed);
KC_CONV2D_LAUNCHER(launch_shared_tile_no_sync);

#undef KC_CONV2D_LAUNCHER

// The launch shape of a grid and a 2-D block.
inline dim3 blocks_of(const grid_2d& grid) { return dim3(static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y)); }
inline dim3 threads_of(const conv2d_config& config) {
  return dim3(static_cast<unsigned>(config.block_x), static_cast<unsigned>(config.block_y));
}

// The direct kernel on a grid the caller chooses (the known-bad grid rows launch the correct kernel
// on a wrong grid); `name` goes into the launch status.
launch_status launch_direct_on(const grid_2d& grid, const double* a, double* b, std::size_t ni, std::size_t nj,
                               const conv2d_config& config, cudaStream_t stream, const char* name);

// The correct kernels' __global__ functions, for the occupancy check (kernel_handles.cpp).
const void* direct_function();
const void* shared_tile_function();

// Dynamic shared memory of the halo tile: (block_y + 2)·(block_x + 2) doubles.
std::size_t tile_bytes(const conv2d_config& config);

// The known-bad grids (host arithmetic, so the CPU tests can show which interior points they leave
// without a thread): ceil(ni / block_x) × ceil(ni / block_y), and PolyBench/GPU's
// ceil(ni / block_x) × ceil(nj / block_y).
grid_2d grid_from_ni_both_dims(std::size_t ni, std::size_t nj, const conv2d_config& config);
grid_2d grid_swapped(std::size_t ni, std::size_t nj, const conv2d_config& config);
// Conv2dGridSwapped's own limit: its y extent comes from nj.
std::string grid_swapped_constraint(std::size_t ni, std::size_t nj, const conv2d_config& config);

}  // namespace kc::polybench::conv2d::detail
