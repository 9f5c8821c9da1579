// The kernel behind each pass variant, for the occupancy check (issue 9 §3): keyed by the row's
// launch function, so a registry row that reuses a launcher (WrongFinalBuffer runs K3's) finds it.
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction {
namespace {

using namespace detail;

struct kernel_row {
  pass_launch_fn launch;
  const char* kernel;
  const void* (*function)(int block);
  std::size_t shared_floats_per_thread;  // dynamic shared memory: the launchers pass block·sizeof(float)
  bool block_template = false;           // one instantiation per block: named kernel<block>
};

const kernel_row kernel_rows[] = {
    {launch_interleaved_divergent, "interleaved_divergent", interleaved_divergent_function, 1},
    {launch_interleaved_strided, "interleaved_strided", interleaved_strided_function, 1},
    {launch_sequential_addressing, "sequential_addressing", sequential_addressing_function, 1},
    {launch_first_add_during_load, "first_add_during_load", first_add_during_load_function, 1},
    {launch_unrolled_last_warp, "unrolled_last_warp", unrolled_last_warp_function, 1},
    {launch_complete_unroll, "complete_unroll", complete_unroll_function, 0, true},
    {launch_grid_stride_unroll, "grid_stride_unroll", grid_stride_unroll_function, 0, true},
    {launch_warp_shuffle, "warp_shuffle_sum", warp_shuffle_function, 0},
    {launch_global_interleaved, "global_interleaved", global_interleaved_function, 0},
    {launch_global_sequential, "global_sequential", global_sequential_function, 0},
};

}  // namespace

kernel_handle kernel_handle_of(const variant& v, int block) {
  for (const kernel_row& row : kernel_rows)
    if (v.pass.launch != nullptr && row.launch == v.pass.launch) {
      return {row.block_template ? std::string(row.kernel) + "<" + std::to_string(block) + ">" : row.kernel, row.function(block),
              block, row.shared_floats_per_thread * static_cast<std::size_t>(block) * sizeof(float)};
    }
  return {};
}

}  // namespace kc::reduction
