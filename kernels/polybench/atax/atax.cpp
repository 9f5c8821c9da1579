#include "kernels/polybench/atax/atax.hpp"

#include <algorithm>
#include <sstream>

namespace kc::polybench::atax {

std::string atax_shape::describe() const {
  std::ostringstream out;
  out << nx << " x " << ny << " (nx x ny)";
  return out.str();
}

std::string atax_config::describe() const {
  if (block == 0) return "library-chosen launch";
  return "block " + std::to_string(block);
}

std::size_t blocks_for(int extent, int block) {
  if (block <= 0 || extent <= 0) return 0;
  return (static_cast<std::size_t>(extent) + static_cast<std::size_t>(block) - 1) / static_cast<std::size_t>(block);
}

launch_status validate(const variant& v, const atax_shape& s, const atax_config& config, const device_limits& limits) {
  const std::string who = std::string(v.name) + " (" + std::string(v.catalog_id) + ")";
  if (s.nx < 1 || s.ny < 1)
    return launch_status::refused(who + ": shape " + s.describe() +
                                  ": A needs at least one row and one column (nx >= 1 and ny >= 1)");
  if (v.library) {
    if (config.block != 0)
      return launch_status::refused(who + ": cuBLAS picks its own launch: give block 0 (library-chosen), not " +
                                    config.describe());
  } else {
    if (const std::string why = block_1d_problem(config.block, limits); !why.empty())
      return launch_status::refused(who + ": " + why);
    // One thread per row (nx) in one product and per column (ny) in the other.
    const int extent = std::max(s.nx, s.ny);
    if (const std::size_t grid = blocks_for(extent, config.block); grid > static_cast<std::size_t>(limits.max_grid_x))
      return launch_status::refused(who + ": " + std::to_string(extent) + " threads need " + std::to_string(grid) +
                                    " blocks of " + std::to_string(config.block) + ", more than this device's " +
                                    std::to_string(limits.max_grid_x) + "; use a larger block");
  }
  if (v.constraint != nullptr)
    if (std::string why = v.constraint(s, config, limits); !why.empty()) return launch_status::refused(who + ": " + why);
  return launch_status::ok();
}

launch_status launch(const variant& v, const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                     const atax_config& config, const launch_context& context) {
  if (launch_status status = validate(v, s, config, device_limits::of_current_device()); !status) return status;
  return v.launch(a, x, tmp, y, s, config, context);
}

launch_status launch_by_name(std::string_view name, const double* a, const double* x, double* tmp, double* y,
                             const atax_shape& s, const atax_config& config, const launch_context& context) {
  for (const variant& v : correct_variants())
    if (v.name == name) return launch(v, a, x, tmp, y, s, config, context);
  return launch_status::refused("no correct ATAX variant is named \"" + std::string(name) + "\"");
}

}  // namespace kc::polybench::atax
