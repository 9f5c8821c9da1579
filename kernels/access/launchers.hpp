// The access family's launch functions, one per registry row. Each is called by launch() after
// validate() accepted (n, config), computes its grid and launches on `stream`, and reports
// cudaGetLastError(). Correct kernels: coalescing.cu, divergence.cu; seed 003's kernels as written
// and the other known-bad rows: known_bad/.
#pragma once

#include "kernels/access/access.hpp"

namespace kc::access::detail {

#define KC_ACCESS_LAUNCHER(name)                                                                        \
  launch_status name(const float* a, const float* b, float* c, std::size_t n, const access_config& config, \
                     cudaStream_t stream)

// coalescing.cu
KC_ACCESS_LAUNCHER(launch_full_coalesced);
KC_ACCESS_LAUNCHER(launch_non_coalesced);
KC_ACCESS_LAUNCHER(launch_semi_coalesced);
KC_ACCESS_LAUNCHER(launch_non_coalesced_hashed);
KC_ACCESS_LAUNCHER(launch_semi_coalesced_hashed);
// divergence.cu
KC_ACCESS_LAUNCHER(launch_warp_no_divergence);
KC_ACCESS_LAUNCHER(launch_warp_divergence);
KC_ACCESS_LAUNCHER(launch_vector_add);
// known_bad/as_written.cu
KC_ACCESS_LAUNCHER(launch_non_coalesced_as_written);
KC_ACCESS_LAUNCHER(launch_semi_coalesced_as_written);
// known_bad/pattern_bugs.cu
KC_ACCESS_LAUNCHER(launch_semi_coalesced_group_per_lane);
KC_ACCESS_LAUNCHER(launch_warp_no_divergence_ops_swapped);
KC_ACCESS_LAUNCHER(launch_warp_divergence_ops_swapped);
KC_ACCESS_LAUNCHER(launch_vector_add_grid_rounds_down);

#undef KC_ACCESS_LAUNCHER

// The correct kernels' __global__ functions, for the occupancy check (kernel_handles.cpp).
const void* full_coalesced_access_function();
const void* non_coalesced_access_function();
const void* semi_coalesced_access_function();
const void* non_coalesced_hashed_function();
const void* semi_coalesced_hashed_function();
const void* warp_no_divergence_function();
const void* warp_divergence_function();
const void* vector_add_function();

// The as-written rows' own constraints (the seed's host arithmetic divides by zero below them).
std::string non_coalesced_as_written_constraint(std::size_t n, const access_config& config);
std::string semi_coalesced_as_written_constraint(std::size_t n, const access_config& config);
std::string grid_rounds_down_constraint(std::size_t n, const access_config& config);

}  // namespace kc::access::detail
