// The kernel behind each correct access row, for the occupancy check (issue 9 §3): keyed by the
// row's launch function. Every access kernel is 1-D with no shared memory, so the handle is the
// function and config.block.
#include "kernels/access/launchers.hpp"

namespace kc::access {
namespace {

using namespace detail;

struct kernel_row {
  launch_fn launch;
  const char* kernel;
  const void* (*function)();
};

const kernel_row kernel_rows[] = {
    {launch_full_coalesced, "full_coalesced_access", full_coalesced_access_function},
    {launch_non_coalesced, "non_coalesced_access", non_coalesced_access_function},
    {launch_semi_coalesced, "semi_coalesced_access", semi_coalesced_access_function},
    {launch_non_coalesced_hashed, "non_coalesced_hashed", non_coalesced_hashed_function},
    {launch_semi_coalesced_hashed, "semi_coalesced_hashed", semi_coalesced_hashed_function},
    {launch_warp_no_divergence, "warp_no_divergence", warp_no_divergence_function},
    {launch_warp_divergence, "warp_divergence", warp_divergence_function},
    {launch_vector_add, "vector_add", vector_add_function},
};

}  // namespace

kernel_handle kernel_handle_of(const variant& v, const access_config& config) {
  for (const kernel_row& row : kernel_rows)
    if (row.launch == v.launch) return {row.kernel, row.function(), config.block, 0};
  return {};
}

}  // namespace kc::access
