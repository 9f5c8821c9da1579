// The kernel behind each hand-written matmul variant, for the occupancy check (issue 9 §3), keyed
// by the row's launch function: MM1 and MM3 launch one kernel, MM2 and MM4 another (two: the wide
// patches' own, picked by TILE_WIDTH).
#include "kernels/matmul/kernels.hpp"

namespace kc::matmul {
namespace {

using namespace detail;

struct kernel_row {
  launch_fn launch;
  const char* kernel;
  const void* (*function)(const matmul_config& config);
  bool tile_template = false;  // one instantiation per TILE_WIDTH: named kernel<TILE_WIDTH>
  const char* (*name)(const matmul_config& config) = nullptr;  // where the kernel depends on the config
};

const kernel_row kernel_rows[] = {
    {launch_single_block, "one_output_per_thread", one_output_per_thread_function},
    {launch_one_output_per_thread, "one_output_per_thread", one_output_per_thread_function},
    {launch_single_block_patch, "patch_per_thread", patch_per_thread_function, false, patch_per_thread_name},
    {launch_patch_per_thread, "patch_per_thread", patch_per_thread_function, false, patch_per_thread_name},
    {launch_shared_tiled, "shared_tiled", shared_tiled_function, true},
};

}  // namespace

kernel_handle kernel_handle_of(const variant& v, const matmul_config& config) {
  for (const kernel_row& row : kernel_rows)
    if (v.launch_kernel != nullptr && row.launch == v.launch_kernel)
      return {row.tile_template ? std::string(row.kernel) + "<" + std::to_string(config.tile_width) + ">"
              : row.name        ? row.name(config)
                                : row.kernel,
              row.function(config), config.block * config.block, 0};
  return {};
}

}  // namespace kc::matmul
