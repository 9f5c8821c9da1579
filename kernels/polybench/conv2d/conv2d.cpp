#include "kernels/polybench/conv2d/launchers.hpp"

#include <climits>
#include <sstream>

namespace kc::polybench::conv2d {

std::string conv2d_config::describe() const {
  std::ostringstream out;
  out << "block " << block_x << 'x' << block_y;
  return out.str();
}

std::string conv2d_config::name() const {
  std::ostringstream out;
  out << 'B' << block_x << 'x' << block_y;
  return out.str();
}

namespace {
std::size_t blocks_over(std::size_t extent, int block) {
  return block <= 0 ? 0 : (extent + static_cast<std::size_t>(block) - 1) / static_cast<std::size_t>(block);
}
}  // namespace

grid_2d grid_for(std::size_t ni, std::size_t nj, const conv2d_config& config) {
  return {blocks_over(nj, config.block_x), blocks_over(ni, config.block_y)};
}

std::size_t interior_points(std::size_t ni, std::size_t nj) { return ni < 3 || nj < 3 ? 0 : (ni - 2) * (nj - 2); }

std::size_t shared_bytes(const variant& v, const conv2d_config& config) {
  return v.shared_tile ? detail::tile_bytes(config) : 0;
}

namespace detail {

std::size_t tile_bytes(const conv2d_config& config) {
  if (config.block_x < 1 || config.block_y < 1) return 0;
  return (static_cast<std::size_t>(config.block_x) + 2) * (static_cast<std::size_t>(config.block_y) + 2) * sizeof(double);
}

grid_2d grid_from_ni_both_dims(std::size_t ni, std::size_t, const conv2d_config& config) {
  return {blocks_over(ni, config.block_x), blocks_over(ni, config.block_y)};
}

grid_2d grid_swapped(std::size_t ni, std::size_t nj, const conv2d_config& config) {
  return {blocks_over(ni, config.block_x), blocks_over(nj, config.block_y)};
}

}  // namespace detail

launch_status validate(const variant& v, std::size_t ni, std::size_t nj, const conv2d_config& config,
                       const device_limits& limits) {
  const std::string who = std::string(v.name) + " (" + std::string(v.catalog_id) + ")";
  const std::string size = std::to_string(ni) + " x " + std::to_string(nj);
  if (ni == 0 || nj == 0)
    return launch_status::refused(who + ": a is " + size +
                                  ": there is nothing to convolve; ni and nj must be at least 1 (below 3 there is no "
                                  "interior, and a launch writes nothing)");
  if (ni > static_cast<std::size_t>(INT_MAX) || nj > static_cast<std::size_t>(INT_MAX))
    return launch_status::refused(who + ": a is " + size + ": seed 004's ni and nj are int; each must be at most " +
                                  std::to_string(INT_MAX));
  const std::string block = std::to_string(config.block_x) + "x" + std::to_string(config.block_y);
  if (config.block_x < 1 || config.block_y < 1)
    return launch_status::refused(who + ": block " + block + " has no threads; block_x and block_y must be at least 1 "
                                  "(e.g. the seed's 16x16)");
  if (config.block_x > limits.max_block_dim_xy || config.block_y > limits.max_block_dim_xy)
    return launch_status::refused(who + ": block " + block + " exceeds this device's " +
                                  std::to_string(limits.max_block_dim_xy) + " threads along x or y");
  const long long threads = static_cast<long long>(config.block_x) * config.block_y;
  if (threads > limits.max_threads_per_block)
    return launch_status::refused(who + ": block " + block + " is " + std::to_string(threads) +
                                  " threads, more than this device's " + std::to_string(limits.max_threads_per_block) +
                                  " per block (32x32 is the largest square)");
  const grid_2d grid = grid_for(ni, nj, config);
  if (grid.x > static_cast<std::size_t>(limits.max_grid_x))
    return launch_status::refused(who + ": nj = " + std::to_string(nj) + " needs " + std::to_string(grid.x) +
                                  " column blocks of block_x " + std::to_string(config.block_x) + ", more than this device's " +
                                  std::to_string(limits.max_grid_x) + "; use a wider block");
  if (grid.y > static_cast<std::size_t>(limits.max_grid_yz)) {
    const std::size_t least = (ni + static_cast<std::size_t>(limits.max_grid_yz) - 1) / static_cast<std::size_t>(limits.max_grid_yz);
    return launch_status::refused(who + ": ni = " + std::to_string(ni) + " needs " + std::to_string(grid.y) +
                                  " row blocks of block_y " + std::to_string(config.block_y) + ", more than this device's " +
                                  std::to_string(limits.max_grid_yz) + "; use block_y >= " + std::to_string(least));
  }
  if (const std::size_t bytes = shared_bytes(v, config); bytes > limits.shared_memory_per_block)
    return launch_status::refused(who + ": block " + block + " stages a " + std::to_string(config.block_y + 2) + " x " +
                                  std::to_string(config.block_x + 2) + " tile of doubles (" + std::to_string(bytes) +
                                  " bytes), more than this device's " + std::to_string(limits.shared_memory_per_block) +
                                  " bytes of shared memory per block; use a smaller block");
  if (v.constraint != nullptr)
    if (std::string why = v.constraint(ni, nj, config); !why.empty()) return launch_status::refused(who + ": " + why);
  return launch_status::ok();
}

launch_status launch(const variant& v, const double* a, double* b, std::size_t ni, std::size_t nj,
                     const conv2d_config& config, cudaStream_t stream) {
  if (launch_status status = validate(v, ni, nj, config, device_limits::of_current_device()); !status) return status;
  return v.launch(a, b, ni, nj, config, stream);
}

launch_status launch_by_name(std::string_view name, const double* a, double* b, std::size_t ni, std::size_t nj,
                             const conv2d_config& config, cudaStream_t stream) {
  for (const variant& v : correct_variants())
    if (v.name == name) return launch(v, a, b, ni, nj, config, stream);
  return launch_status::refused("no correct conv2d variant is named \"" + std::string(name) + "\"");
}

kernel_handle kernel_handle_of(const variant& v, const conv2d_config& config) {
  const int threads = config.block_x * config.block_y;
  if (v.launch == detail::launch_direct) return {"conv2d_direct", detail::direct_function(), threads, 0};
  if (v.launch == detail::launch_shared_tile)
    return {"conv2d_shared_tile", detail::shared_tile_function(), threads, detail::tile_bytes(config)};
  return {};
}

}  // namespace kc::polybench::conv2d
