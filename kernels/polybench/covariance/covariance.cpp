#include "kernels/polybench/covariance/launchers.hpp"

#include <cmath>
#include <sstream>

namespace kc::polybench::covariance {

std::string dims::describe() const {
  std::ostringstream out;
  out << n << " x " << m << " (n rows x m columns)";
  return out.str();
}

std::string covariance_config::describe() const {
  std::ostringstream out;
  if (tile == 0) out << "cuBLAS DSYRK product";
  else out << "tile " << tile << 'x' << tile;
  if (mean_block != 0) out << ", mean block " << mean_block << ", " << (tile == 0 ? "centring/mirror" : "centring")
                           << " block " << centre_x << 'x' << centre_y;
  return out.str();
}

std::string covariance_config::name() const {
  std::ostringstream out;
  if (tile == 0) out << "Lib";
  else out << 'T' << tile;
  if (mean_block != 0) out << 'B' << mean_block << 'C' << centre_x << 'x' << centre_y;
  return out.str();
}

const char* name_of(product_kind kind) {
  switch (kind) {
    case product_kind::tiled: return "shared-memory tiled product";
    case product_kind::library: return "cuBLAS product";
    case product_kind::fused: return "the seed's fused kernel";
  }
  return "?";
}

std::vector<covariance_config> tiled_configs(const dims&) { return {{8, 64, 8, 8}, {16, 256, 32, 8}, {32, 1024, 32, 32}}; }
std::vector<covariance_config> library_configs(const dims&) { return {{0, 256, 32, 8}}; }

namespace {

std::size_t blocks_for(std::size_t count, int per_block) {
  return per_block <= 0 ? 0 : (count + static_cast<std::size_t>(per_block) - 1) / static_cast<std::size_t>(per_block);
}

std::string check_tile(const variant& v, const dims& d, const covariance_config& c, const device_limits& limits) {
  switch (v.product) {
    case product_kind::tiled:
      if (c.tile != 8 && c.tile != 16 && c.tile != 32)
        return "tile " + std::to_string(c.tile) + " is not built: the tiled product exists for tiles 8, 16 and 32";
      if (c.tile * c.tile > limits.max_threads_per_block)
        return "tile " + std::to_string(c.tile) + " needs " + std::to_string(c.tile * c.tile) + " threads per block, more than " +
               "this device's " + std::to_string(limits.max_threads_per_block) + ": use a smaller tile";
      if (blocks_for(static_cast<std::size_t>(d.m), c.tile) > static_cast<std::size_t>(limits.max_grid_yz))
        return "m = " + std::to_string(d.m) + " columns need " + std::to_string(blocks_for(d.m, c.tile)) +
               " row blocks of the product at tile " + std::to_string(c.tile) + ", more than this device's " +
               std::to_string(limits.max_grid_yz) + ": use a larger tile";
      return {};
    case product_kind::library:
      if (c.tile != 0)
        return "the product is a cuBLAS call, which chooses its own launch: tile must be 0, not " + std::to_string(c.tile);
      if (blocks_for(static_cast<std::size_t>(d.m), c.centre_y) > static_cast<std::size_t>(limits.max_grid_yz))
        return "m = " + std::to_string(d.m) + " needs more than " + std::to_string(limits.max_grid_yz) +
               " row blocks of the mirror kernel at block height " + std::to_string(c.centre_y) + ": use a taller block";
      return {};
    case product_kind::fused: return {};  // the row's constraint checks its BLOCK_SIZE
  }
  return "unknown product kind";
}

std::string check_vector_blocks(const dims& d, const covariance_config& c, const device_limits& limits) {
  const std::string max_threads = std::to_string(limits.max_threads_per_block);
  if (const std::string why = block_1d_problem(c.mean_block, limits); !why.empty()) return "mean " + why;
  const std::string block = std::to_string(c.centre_x) + 'x' + std::to_string(c.centre_y);
  if (c.centre_x < 1 || c.centre_y < 1) return "centring block " + block + " has no threads: both sides must be at least 1";
  if (c.centre_x > limits.max_block_dim_xy || c.centre_y > limits.max_block_dim_xy ||
      static_cast<long long>(c.centre_x) * c.centre_y > limits.max_threads_per_block)
    return "centring block " + block + " has " + std::to_string(static_cast<long long>(c.centre_x) * c.centre_y) +
           " threads, more than this device's " + max_threads + " per block: use 32x8 (PolyBench/GPU's) or 32x32";
  if (blocks_for(static_cast<std::size_t>(d.n), c.centre_y) > static_cast<std::size_t>(limits.max_grid_yz))
    return "n = " + std::to_string(d.n) + " rows need " + std::to_string(blocks_for(d.n, c.centre_y)) +
           " row blocks of the centring kernel at block height " + std::to_string(c.centre_y) + ", more than this device's " +
           std::to_string(limits.max_grid_yz) + ": use a taller centring block";
  return {};
}

}  // namespace

launch_status validate(const variant& v, const dims& d, double float_n, const covariance_config& config,
                       const device_limits& limits) {
  const std::string who = std::string(v.name) + " (" + std::string(v.catalog_id) + "): ";
  if (d.n < 1)
    return launch_status::refused(who + "n = " + std::to_string(d.n) +
                                  " rows: the mean of no observations is undefined; n must be at least 1");
  if (d.m < 1)
    return launch_status::refused(who + "m = " + std::to_string(d.m) +
                                  " columns: there is no variable to average; m must be at least 1");
  if (!std::isfinite(float_n) || float_n == 0.0) {
    std::ostringstream out;
    out << who << "FLOAT_N = " << float_n << ": the mean divides by FLOAT_N, which must be finite and non-zero "
        << "(PolyBench's is 3214212.01; n gives the true mean)";
    return launch_status::refused(out.str());
  }
  if (std::string why = check_tile(v, d, config, limits); !why.empty()) return launch_status::refused(who + why);
  if (v.product != product_kind::fused)
    if (std::string why = check_vector_blocks(d, config, limits); !why.empty()) return launch_status::refused(who + why);
  if (v.constraint != nullptr)
    if (std::string why = v.constraint(d, config); !why.empty()) return launch_status::refused(who + why);
  return launch_status::ok();
}

launch_status launch(const variant& v, double* data, double* mean, double* symmat, const dims& d, double float_n,
                     const covariance_config& config, const launch_context& context) {
  if (launch_status status = validate(v, d, float_n, config, device_limits::of_current_device()); !status) return status;
  return v.launch(data, mean, symmat, d, float_n, config, context);
}

launch_status launch_by_name(std::string_view name, double* data, double* mean, double* symmat, const dims& d,
                             double float_n, const covariance_config& config, const launch_context& context) {
  for (const variant& v : correct_variants())
    if (v.name == name) return launch(v, data, mean, symmat, d, float_n, config, context);
  return launch_status::refused("no correct covariance variant is named \"" + std::string(name) + "\"");
}

kernel_handle kernel_handle_of(const variant& v, const covariance_config& config) {
  if (v.is_known_bad() || v.product != product_kind::tiled) return {};
  const void* function = detail::tiled_product_function(config.tile);
  if (function == nullptr) return {};
  return {"tiled_product<" + std::to_string(config.tile) + ">", function, config.tile * config.tile, 0};
}

}  // namespace kc::polybench::covariance
