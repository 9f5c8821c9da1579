#include "kernels/matmul/matmul.hpp"

#include <sstream>

namespace kc::matmul {

std::string shape::describe() const {
  std::ostringstream out;
  out << m << 'x' << n << 'x' << k << " (m x n x k)";
  return out.str();
}

std::string matmul_config::describe() const {
  if (block == 0) return "library-chosen launch";
  std::ostringstream out;
  out << "block " << block << 'x' << block << ", TILE_WIDTH " << tile_width;
  return out.str();
}

grid_2d one_output_per_thread_grid(const shape& s, const matmul_config& c) {
  return {(s.n + c.block - 1) / c.block, (s.m + c.block - 1) / c.block};
}

grid_2d patch_per_thread_grid(const shape& s, const matmul_config& c) {
  const int covered = c.block * c.tile_width;
  return {(s.n + covered - 1) / covered, (s.m + covered - 1) / covered};
}

launch_status launch(const variant& v, const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                     const launch_context& context) {
  if (launch_status status = v.validate(s, config, device_limits::of_current_device()); !status) return status;
  return v.launch_kernel(a, b, c, s, config, context);
}

}  // namespace kc::matmul
