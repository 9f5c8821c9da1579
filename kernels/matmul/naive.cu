// Seed 002's four hand-written kernels, corrected: every output computed is bounds-checked, so
// any shape is right as long as the launch covers C (the validators refuse launches that cannot).
//   MM1 one block, one output per thread       MM2 one block, a TILE_WIDTH² patch per thread
//   MM3 many blocks, one output per thread     MM4 many blocks, a TILE_WIDTH² patch per thread
#include "kernels/matmul/kernels.hpp"

namespace kc::matmul::detail {
namespace {

__device__ __forceinline__ float dot_row_col(const float* __restrict__ a, const float* __restrict__ b, int row, int col,
                                             int n, int k) {
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += a[static_cast<std::size_t>(row) * k + j] * b[static_cast<std::size_t>(j) * n + col];
  return sum;
}

// MM1 and MM3: the thread's (row, col) is offset by its block (MM1 has one block at 0, 0).
__global__ void one_output_per_thread(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                      int m, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) c[static_cast<std::size_t>(row) * n + col] = dot_row_col(a, b, row, col, n, k);
}

// MM2 and MM4: the thread computes rows [r0, r0 + TW) × cols [c0, c0 + TW), clipped to C.
__global__ void patch_per_thread(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                                 int n, int k, int tile_width) {
  const int r0 = (blockIdx.y * blockDim.y + threadIdx.y) * tile_width;
  const int c0 = (blockIdx.x * blockDim.x + threadIdx.x) * tile_width;
  for (int row = r0; row < r0 + tile_width && row < m; ++row)
    for (int col = c0; col < c0 + tile_width && col < n; ++col)
      c[static_cast<std::size_t>(row) * n + col] = dot_row_col(a, b, row, col, n, k);
}

std::string side(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

launch_status check_block(const matmul_config& config, const device_limits& limits) {
  if (config.block < 1 || config.block > limits.max_block_dim_xy || config.block * config.block > limits.max_threads_per_block)
    return launch_status::refused("block " + side(config.block, config.block) + " is not a valid block on this device (at most " +
                                  std::to_string(limits.max_threads_per_block) + " threads)");
  if (config.tile_width < 1) return launch_status::refused("TILE_WIDTH must be >= 1");
  return launch_status::ok();
}

launch_status check_shape(const shape& s) {
  if (s.m < 1 || s.n < 1 || s.k < 1) return launch_status::refused("shape " + s.describe() + ": every dimension must be >= 1");
  return launch_status::ok();
}

// "TILE_WIDTH 16 covers 512 of n = 1024 rows: needs >= 32"
launch_status check_single_block_coverage(const shape& s, const matmul_config& config) {
  const int covered = config.block * config.tile_width;
  const auto needs = [&](int extent) { return (extent + config.block - 1) / config.block; };
  const std::string what = config.tile_width == 1 ? "a block side of " + std::to_string(config.block)
                                                  : "TILE_WIDTH " + std::to_string(config.tile_width);
  if (covered < s.m)
    return launch_status::refused(what + " covers " + std::to_string(covered) + " of " + (s.square() ? "n" : "m") + " = " +
                                  std::to_string(s.m) + " rows: needs " +
                                  (config.tile_width == 1 ? "a many-block variant (MM3)" : ">= " + std::to_string(needs(s.m))));
  if (covered < s.n)
    return launch_status::refused(what + " covers " + std::to_string(covered) + " of n = " + std::to_string(s.n) +
                                  " columns: needs " +
                                  (config.tile_width == 1 ? "a many-block variant (MM3)" : ">= " + std::to_string(needs(s.n))));
  return launch_status::ok();
}

}  // namespace

const void* one_output_per_thread_function(const matmul_config&) { return reinterpret_cast<const void*>(&one_output_per_thread); }
const void* patch_per_thread_function(const matmul_config&) { return reinterpret_cast<const void*>(&patch_per_thread); }

launch_status validate_single_block(const shape& s, const matmul_config& config, const device_limits& limits) {
  if (auto st = check_shape(s); !st) return st;
  if (auto st = check_block(config, limits); !st) return st;
  if (config.tile_width != 1) return launch_status::refused("MM1 computes one output per thread: TILE_WIDTH must be 1");
  return check_single_block_coverage(s, config);
}

launch_status launch_single_block(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                  const launch_context& context) {
  one_output_per_thread<<<1, dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n, s.k);
  return launch_status::after_launch("MM1 one_output_per_thread (one block)");
}

launch_status validate_single_block_patch(const shape& s, const matmul_config& config, const device_limits& limits) {
  if (auto st = check_shape(s); !st) return st;
  if (auto st = check_block(config, limits); !st) return st;
  return check_single_block_coverage(s, config);
}

launch_status launch_single_block_patch(const float* a, const float* b, float* c, const shape& s,
                                        const matmul_config& config, const launch_context& context) {
  patch_per_thread<<<1, dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n, s.k, config.tile_width);
  return launch_status::after_launch("MM2 patch_per_thread (one block)");
}

launch_status validate_one_output_per_thread(const shape& s, const matmul_config& config, const device_limits& limits) {
  if (auto st = check_shape(s); !st) return st;
  if (auto st = check_block(config, limits); !st) return st;
  if (config.tile_width != 1) return launch_status::refused("MM3 computes one output per thread: TILE_WIDTH must be 1");
  const grid_2d g = one_output_per_thread_grid(s, config);
  if (g.y > limits.max_grid_yz) return launch_status::refused("m = " + std::to_string(s.m) + " needs " + std::to_string(g.y) +
                                                              " row blocks, more than this device allows: use a larger block");
  return launch_status::ok();
}

launch_status launch_one_output_per_thread(const float* a, const float* b, float* c, const shape& s,
                                           const matmul_config& config, const launch_context& context) {
  const grid_2d g = one_output_per_thread_grid(s, config);
  one_output_per_thread<<<dim3(g.x, g.y), dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n, s.k);
  return launch_status::after_launch("MM3 one_output_per_thread");
}

launch_status validate_patch_per_thread(const shape& s, const matmul_config& config, const device_limits& limits) {
  if (auto st = check_shape(s); !st) return st;
  if (auto st = check_block(config, limits); !st) return st;
  const grid_2d g = patch_per_thread_grid(s, config);
  if (g.y > limits.max_grid_yz) return launch_status::refused("m = " + std::to_string(s.m) + " needs " + std::to_string(g.y) +
                                                              " row blocks, more than this device allows: raise TILE_WIDTH or the block");
  return launch_status::ok();
}

launch_status launch_patch_per_thread(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                      const launch_context& context) {
  const grid_2d g = patch_per_thread_grid(s, config);
  patch_per_thread<<<dim3(g.x, g.y), dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n, s.k,
                                                                                            config.tile_width);
  return launch_status::after_launch("MM4 patch_per_thread");
}

}  // namespace kc::matmul::detail
