// MMs: the course-slide shared-memory tiled kernel (the one seed 004's covariance builds on), with
// TILE_WIDTH a template parameter (8, 16, 32) and blocks of TILE_WIDTH × TILE_WIDTH threads. Tiles
// that run past A's or B's edge are padded with zeros, so any m, n, k is right. The two barriers
// per tile matter: the first makes the tile complete before anyone reads it, the second keeps a
// fast thread from overwriting it while others still read (its known-bad twin drops that one).
#include "kernels/matmul/kernels.hpp"

namespace kc::matmul::detail {
namespace {

template <int TileWidth>
__global__ void shared_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                             int k) {
  __shared__ float a_tile[TileWidth][TileWidth];
  __shared__ float b_tile[TileWidth][TileWidth];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TileWidth + ty;
  const int col = blockIdx.x * TileWidth + tx;
  float sum = 0.0f;
  const int tiles = (k + TileWidth - 1) / TileWidth;
  for (int t = 0; t < tiles; ++t) {
    const int a_col = t * TileWidth + tx;
    const int b_row = t * TileWidth + ty;
    a_tile[ty][tx] = row < m && a_col < k ? a[static_cast<std::size_t>(row) * k + a_col] : 0.0f;
    b_tile[ty][tx] = b_row < k && col < n ? b[static_cast<std::size_t>(b_row) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TileWidth; ++j) sum += a_tile[ty][j] * b_tile[j][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<std::size_t>(row) * n + col] = sum;
}

template <int TileWidth>
void launch_tile(const float* a, const float* b, float* c, const shape& s, cudaStream_t stream) {
  const dim3 grid((s.n + TileWidth - 1) / TileWidth, (s.m + TileWidth - 1) / TileWidth);
  shared_tiled<TileWidth><<<grid, dim3(TileWidth, TileWidth), 0, stream>>>(a, b, c, s.m, s.n, s.k);
}

}  // namespace

const void* shared_tiled_function(const matmul_config& config) {
  switch (config.tile_width) {
    case 8: return reinterpret_cast<const void*>(&shared_tiled<8>);
    case 16: return reinterpret_cast<const void*>(&shared_tiled<16>);
    case 32: return reinterpret_cast<const void*>(&shared_tiled<32>);
    default: return nullptr;
  }
}

launch_status validate_shared_tiled(const shape& s, const matmul_config& config, const device_limits& limits) {
  if (s.m < 1 || s.n < 1 || s.k < 1) return launch_status::refused("shape " + s.describe() + ": every dimension must be >= 1");
  if (config.tile_width != 8 && config.tile_width != 16 && config.tile_width != 32)
    return launch_status::refused("TILE_WIDTH " + std::to_string(config.tile_width) +
                                  " is not built: the tiled kernel exists for TILE_WIDTH 8, 16 and 32");
  if (config.block != config.tile_width)
    return launch_status::refused("the tiled kernel's block is TILE_WIDTH x TILE_WIDTH: block " + std::to_string(config.block) +
                                  " does not match TILE_WIDTH " + std::to_string(config.tile_width));
  if ((s.m + config.tile_width - 1) / config.tile_width > limits.max_grid_yz)
    return launch_status::refused("m = " + std::to_string(s.m) + " needs more row blocks than this device allows");
  return launch_status::ok();
}

launch_status launch_shared_tiled(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                  const launch_context& context) {
  switch (config.tile_width) {
    case 8: launch_tile<8>(a, b, c, s, context.stream); break;
    case 16: launch_tile<16>(a, b, c, s, context.stream); break;
    case 32: launch_tile<32>(a, b, c, s, context.stream); break;
    default: return launch_status::refused("TILE_WIDTH " + std::to_string(config.tile_width) + " is not built");
  }
  return launch_status::after_launch("MMs shared_tiled");
}

}  // namespace kc::matmul::detail
