// KNOWN-BAD. Seed 002's kernels as the report wrote them (square n only, no bounds checks), each
// launched the way the report launched it:
//   MM1  row = threadIdx.y, col = threadIdx.x; one 32×32 block: right only for n = 32 (n < 32
//        writes out of bounds, n > 32 leaves outputs unwritten).
//   MM2  one 32×32 block, a TILE_WIDTH² patch each: right only when 32·TILE_WIDTH = n — too small
//        leaves outputs unwritten, too large writes (and reads) out of bounds. The "wrong tile width".
//   MM3  grid = n / block (integer division), no bounds check: right only when block divides n.
//   MM4  grid = n / (block·TILE_WIDTH): right only when grid·block·TILE_WIDTH = n.
#include "kernels/matmul/kernels.hpp"

namespace kc::matmul::detail {
namespace {

__global__ void mm1_as_written(float* C, const float* A, const float* B, int n) {
  int row = threadIdx.y;
  int col = threadIdx.x;
  float C_val = 0;
  for (int k = 0; k < n; ++k) C_val += A[row * n + k] * B[k * n + col];
  C[row * n + col] = C_val;
}

__global__ void mm2_as_written(float* C, const float* A, const float* B, int n, int TILE_WIDTH) {
  int start_row = threadIdx.y * TILE_WIDTH;
  int end_row = start_row + TILE_WIDTH;
  int start_col = threadIdx.x * TILE_WIDTH;
  int end_col = start_col + TILE_WIDTH;
  for (int row = start_row; row < end_row; row++)
    for (int col = start_col; col < end_col; col++) {
      float C_val = 0;
      for (int k = 0; k < n; ++k) C_val += A[row * n + k] * B[k * n + col];
      C[row * n + col] = C_val;
    }
}

__global__ void mm3_as_written(float* C, const float* A, const float* B, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float C_val = 0;
  for (int k = 0; k < n; ++k) C_val += A[row * n + k] * B[k * n + col];
  C[row * n + col] = C_val;
}

__global__ void mm4_as_written(float* C, const float* A, const float* B, int n, int TILE_WIDTH) {
  int start_row = blockDim.y * blockIdx.y * TILE_WIDTH + threadIdx.y * TILE_WIDTH;
  int end_row = start_row + TILE_WIDTH;
  int start_col = blockDim.x * blockIdx.x * TILE_WIDTH + threadIdx.x * TILE_WIDTH;
  int end_col = start_col + TILE_WIDTH;
  for (int row = start_row; row < end_row; row++)
    for (int col = start_col; col < end_col; col++) {
      float C_val = 0;
      for (int k = 0; k < n; ++k) C_val += A[row * n + k] * B[k * n + col];
      C[row * n + col] = C_val;
    }
}

int at_least_one(int x) { return x < 1 ? 1 : x; }

}  // namespace

// The report's code takes one n: only square shapes can be run as written.
launch_status validate_as_written_square(const shape& s, const matmul_config& config, const device_limits& limits) {
  if (!s.square() || s.n < 1) return launch_status::refused("the seed's kernels take one n: square shapes only");
  if (config.block < 1 || config.block * config.block > limits.max_threads_per_block)
    return launch_status::refused("invalid block " + std::to_string(config.block));
  return launch_status::ok();
}

// The report's cuBLAS call takes one n too, and cuBLAS picks its own launch (block 0). Before
// issue 6 this row was validated with the hand-written kernels' validator, which refuses block 0:
// every case was refused, and the known-bad gate counted each refusal as a catch.
launch_status validate_cublas_as_written_square(const shape& s, const matmul_config& config, const device_limits&) {
  if (!s.square() || s.n < 1) return launch_status::refused("the report's call takes one n: square shapes only");
  if (config.block != 0) return launch_status::refused("cuBLAS chooses its own launch: block must be 0");
  return launch_status::ok();
}

launch_status launch_mm1_as_written(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                    const launch_context& context) {
  mm1_as_written<<<1, dim3(32, 32), 0, context.stream>>>(c, a, b, s.n);
  return launch_status::after_launch("MM1 as written");
}

launch_status launch_mm2_as_written(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                    const launch_context& context) {
  mm2_as_written<<<1, dim3(32, 32), 0, context.stream>>>(c, a, b, s.n, config.tile_width);
  return launch_status::after_launch("MM2 as written");
}

launch_status launch_mm3_as_written(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                    const launch_context& context) {
  const int grid = at_least_one(s.n / config.block);
  mm3_as_written<<<dim3(grid, grid), dim3(config.block, config.block), 0, context.stream>>>(c, a, b, s.n);
  return launch_status::after_launch("MM3 as written");
}

launch_status launch_mm4_as_written(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                    const launch_context& context) {
  const int grid = at_least_one(s.n / (config.block * config.tile_width));
  mm4_as_written<<<dim3(grid, grid), dim3(config.block, config.block), 0, context.stream>>>(c, a, b, s.n, config.tile_width);
  return launch_status::after_launch("MM4 as written");
}

}  // namespace kc::matmul::detail
