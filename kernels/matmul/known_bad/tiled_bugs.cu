// KNOWN-BAD. Three slips of the shared-memory tiled kernel (shared_tiled.cu), TILE_WIDTH 16:
//   TiledNoSecondSync        the barrier after the inner product is missing: a fast warp loads the
//                            next tile over the one slower warps are still reading (a WAR race).
//   TiledTileCountRoundsDown the tile loop runs k / TILE_WIDTH times instead of rounding up — off by
//                            one whenever k is not a multiple of TILE_WIDTH: the last partial tile
//                            of the dot product is dropped.
//   TiledReadsPastRowEnd     A's element is loaded before its column is checked and discarded when
//                            the column is past k: on the last row that reads up to 15 elements
//                            past A's end. A guard zone absorbs it; memcheck on exact-size buffers
//                            catches it (issue 6).
#include "kernels/matmul/kernels.hpp"

namespace kc::matmul::detail {
namespace {

constexpr int tile = 16;

template <bool SecondSync, bool RoundUp, bool LoadBeforeColumnCheck = false>
__global__ void tiled_with_bug(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                               int k) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;
  float sum = 0.0f;
  const int tiles = RoundUp ? (k + tile - 1) / tile : k / tile;
  for (int t = 0; t < tiles; ++t) {
    const int a_col = t * tile + tx;
    const int b_row = t * tile + ty;
    if constexpr (LoadBeforeColumnCheck) {
      const float loaded = row < m ? a[static_cast<std::size_t>(row) * k + a_col] : 0.0f;
      a_tile[ty][tx] = a_col < k ? loaded : 0.0f;
    } else {
      a_tile[ty][tx] = row < m && a_col < k ? a[static_cast<std::size_t>(row) * k + a_col] : 0.0f;
    }
    b_tile[ty][tx] = b_row < k && col < n ? b[static_cast<std::size_t>(b_row) * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < tile; ++j) sum += a_tile[ty][j] * b_tile[j][tx];
    if constexpr (SecondSync) __syncthreads();
  }
  if (row < m && col < n) c[static_cast<std::size_t>(row) * n + col] = sum;
}

template <bool SecondSync, bool RoundUp, bool LoadBeforeColumnCheck = false>
launch_status launch_bug(const float* a, const float* b, float* c, const shape& s, cudaStream_t stream, const char* name) {
  const dim3 grid((s.n + tile - 1) / tile, (s.m + tile - 1) / tile);
  tiled_with_bug<SecondSync, RoundUp, LoadBeforeColumnCheck><<<grid, dim3(tile, tile), 0, stream>>>(a, b, c, s.m, s.n, s.k);
  return launch_status::after_launch(name);
}

}  // namespace

launch_status launch_tiled_no_second_sync(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                          const launch_context& context) {
  return launch_bug<false, true>(a, b, c, s, context.stream, "tiled without the second __syncthreads");
}

launch_status launch_tiled_tile_count_rounds_down(const float* a, const float* b, float* c, const shape& s,
                                                  const matmul_config&, const launch_context& context) {
  return launch_bug<true, false>(a, b, c, s, context.stream, "tiled with the tile count rounded down");
}

launch_status launch_tiled_reads_past_row_end(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                              const launch_context& context) {
  return launch_bug<true, true, true>(a, b, c, s, context.stream, "tiled, A read before its column check");
}

}  // namespace kc::matmul::detail
