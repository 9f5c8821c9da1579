// Seed 002's four hand-written kernels, corrected: every output computed is bounds-checked, so
// any shape is right as long as the launch covers C (the validators refuse launches that cannot).
//   MM1 one block, one output per thread       MM2 one block, a TILE_WIDTH² patch per thread
//   MM3 many blocks, one output per thread     MM4 many blocks, a TILE_WIDTH² patch per thread
#include "kernels/matmul/kernels.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace kc::matmul::detail {
namespace {

// The narrowest TILE_WIDTH that patch_per_thread_wide computes: a patch row of 8 floats is a 32-byte
// sector's worth, so a pass uses (nearly) all of every sector it touches.
constexpr int kWidePatch = 8;

// C[row][col] = a[row][0]·b[0][col] + ... + a[row][k-1]·b[k-1][col], left to right, one fused multiply-add
// per term from 0. Spelled __fmaf_rn so that every kernel here (and every pass of patch_per_thread)
// computes an output by the very same operations, whatever the compiler contracts.
__device__ __forceinline__ float dot_row_col(const float* __restrict__ a, const float* __restrict__ b, int row, int col,
                                             int n, int k) {
  float sum = 0.0f;
  for (int j = 0; j < k; ++j)
    sum = __fmaf_rn(a[static_cast<std::size_t>(row) * k + j], b[static_cast<std::size_t>(j) * n + col], sum);
  return sum;
}

// MM1 and MM3: the thread's (row, col) is offset by its block (MM1 has one block at 0, 0).
__global__ void one_output_per_thread(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                      int m, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) c[static_cast<std::size_t>(row) * n + col] = dot_row_col(a, b, row, col, n, k);
}

// One pass of patch_per_thread: the kRows × kCols outputs from (row, col), each the same sum in the same
// order as dot_row_col's, but with one walk over k for all of them: each b[j][col ... col + kCols) is
// read once for kRows rows (as float4s where kVectorB: b 16-byte aligned, n and col multiples of 4), each
// a[row + r][j] once for kCols columns.
template <int kRows, int kCols, bool kVectorB>
__device__ __forceinline__ void patch_pass(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                           int row, int col, int n, int k) {
  static_assert(!kVectorB || kCols % 4 == 0, "float4 loads need whole groups of 4 columns");
  float acc[kRows][kCols];
#pragma unroll
  for (int r = 0; r < kRows; ++r)
#pragma unroll
    for (int q = 0; q < kCols; ++q) acc[r][q] = 0.0f;
  const float* a_rows = a + static_cast<std::size_t>(row) * k;
  const float* b_cols = b + col;
  for (int j = 0; j < k; ++j) {
    const float* b_j = b_cols + static_cast<std::size_t>(j) * n;
    float bv[kCols];
    if constexpr (kVectorB) {
#pragma unroll
      for (int v = 0; v < kCols / 4; ++v) {
        const float4 four = reinterpret_cast<const float4*>(b_j)[v];
        bv[4 * v] = four.x, bv[4 * v + 1] = four.y, bv[4 * v + 2] = four.z, bv[4 * v + 3] = four.w;
      }
    } else {
#pragma unroll
      for (int q = 0; q < kCols; ++q) bv[q] = b_j[q];
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const float av = a_rows[static_cast<std::size_t>(r) * k + j];
#pragma unroll
      for (int q = 0; q < kCols; ++q) acc[r][q] = __fmaf_rn(av, bv[q], acc[r][q]);
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r)
#pragma unroll
    for (int q = 0; q < kCols; ++q) c[static_cast<std::size_t>(row + r) * n + col + q] = acc[r][q];
}

// The columns [col, col_end) of rows [row, row + kRows), widest passes first.
template <int kRows, bool kVectorB>
__device__ __forceinline__ void patch_rows(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                           int row, int col, int col_end, int n, int k) {
  for (; col + 8 <= col_end; col += 8) patch_pass<kRows, 8, kVectorB>(a, b, c, row, col, n, k);
  if (col + 4 <= col_end) patch_pass<kRows, 4, kVectorB>(a, b, c, row, col, n, k), col += 4;
  for (; col < col_end; ++col) patch_pass<kRows, 1, false>(a, b, c, row, col, n, k);
}

// MM2 and MM4: the thread computes rows [r0, r0 + TW) × cols [c0, c0 + TW), clipped to C, one output
// at a time (a full walk over k for each): the seed's loop, kept where the patch is narrower than
// kWidePatch.
__global__ void patch_per_thread(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                                 int n, int k, int tile_width) {
  const int r0 = (blockIdx.y * blockDim.y + threadIdx.y) * tile_width;
  const int c0 = (blockIdx.x * blockDim.x + threadIdx.x) * tile_width;
  for (int row = r0; row < r0 + tile_width && row < m; ++row)
    for (int col = c0; col < c0 + tile_width && col < n; ++col)
      c[static_cast<std::size_t>(row) * n + col] = dot_row_col(a, b, row, col, n, k);
}

// MM2 and MM4 with TILE_WIDTH >= kWidePatch: the same outputs per thread, computed in passes.
// One output at a time, a warp's lanes read b at a stride of TW floats, so each load touched 32
// sectors for 32 useful floats, from L2 again for every column: a single-block MM2 at n = 1024,
// TW = 32 took ~0.5 s a launch on an H100 (the seeds' widest patches are the suite's slowest cases).
// Here the thread walks k once per pass of up to 2 rows × 8 columns (patch_pass): one b load serves 2
// rows, and as a float4 4 columns, where b allows. Every output is still the same sum in the same
// order (bit for bit dot_row_col's), and which outputs a thread owns, so every launch configuration's
// coverage, is the seed's. Passes of 2 × 8: the widest that stays within the 64 registers below
// without spilling (4 × 8 spilled 384 bytes, nvcc 13.0, sm_90). __launch_bounds__(1024): MM2's 32×32
// block must always launch. Narrower patches keep the seed's loop: there the passes gain little and
// the 64 registers halve the occupancy of a many-block launch (MM4 n = 2048, TW = 2 ran 1.62x slower
// through this kernel on an H100: the perf test caught it).
__global__ void __launch_bounds__(1024) patch_per_thread_wide(const float* __restrict__ a, const float* __restrict__ b,
                                                             float* __restrict__ c, int m, int n, int k, int tile_width) {
  const long long r0 = static_cast<long long>(blockIdx.y * blockDim.y + threadIdx.y) * tile_width;
  const long long c0 = static_cast<long long>(blockIdx.x * blockDim.x + threadIdx.x) * tile_width;
  if (r0 >= m || c0 >= n) return;
  const int row_end = static_cast<int>(r0 + tile_width < m ? r0 + tile_width : m);
  const int col_end = static_cast<int>(c0 + tile_width < n ? c0 + tile_width : n);
  const bool vector_b = reinterpret_cast<std::uintptr_t>(b) % 16 == 0 && n % 4 == 0 && c0 % 4 == 0;
  int row = static_cast<int>(r0);
  for (; row + 2 <= row_end; row += 2)
    vector_b ? patch_rows<2, true>(a, b, c, row, static_cast<int>(c0), col_end, n, k)
             : patch_rows<2, false>(a, b, c, row, static_cast<int>(c0), col_end, n, k);
  for (; row < row_end; ++row)
    vector_b ? patch_rows<1, true>(a, b, c, row, static_cast<int>(c0), col_end, n, k)
             : patch_rows<1, false>(a, b, c, row, static_cast<int>(c0), col_end, n, k);
}

// The MM2/MM4 kernel a configuration runs: wide_patch decides, for the launchers, their error
// labels and the occupancy check's handle and name alike.
using patch_kernel = void (*)(const float*, const float*, float*, int, int, int, int);
bool wide_patch(const matmul_config& config) { return config.tile_width >= kWidePatch; }
patch_kernel patch_kernel_for(const matmul_config& config) {
  return wide_patch(config) ? patch_per_thread_wide : patch_per_thread;
}

std::string side(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

launch_status check_block(const matmul_config& config, const device_limits& limits) {
  if (config.block < 1 || config.block > limits.max_block_dim_xy || config.block * config.block > limits.max_threads_per_block)
    return launch_status::refused("block " + side(config.block, config.block) + " is not a valid block on this device (at most " +
                                  std::to_string(limits.max_threads_per_block) + " threads)");
  if (config.tile_width < 1) return launch_status::refused("TILE_WIDTH must be >= 1");
  return launch_status::ok();
}

// MM2/MM4 threads address their patch with int coordinates ((block index · block + thread) · TILE_WIDTH,
// and a pass's end 8 columns on): the last patch of the launch must end at least 8 below 2^31, or an
// index would wrap (m or n within block · TILE_WIDTH + 8 of 2^31, or a TILE_WIDTH near 2^31 / block).
launch_status check_patch_coordinates(const shape& s, const matmul_config& config) {
  const long long covered = static_cast<long long>(config.block) * config.tile_width;
  constexpr long long limit = std::numeric_limits<int>::max() - 8LL;
  for (const auto& [extent, what] : {std::pair{s.m, "m"}, std::pair{s.n, "n"}}) {
    const long long end = (extent + covered - 1) / covered * covered;
    if (end > limit)
      return launch_status::refused(std::string("the patches covering ") + what + " = " + std::to_string(extent) + " end at " +
                                    std::to_string(end) + ", past 2^31 - 9: the kernel's int coordinates would wrap");
  }
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
const void* patch_per_thread_function(const matmul_config& config) {
  return reinterpret_cast<const void*>(patch_kernel_for(config));
}
const char* patch_per_thread_name(const matmul_config& config) {
  return wide_patch(config) ? "patch_per_thread_wide" : "patch_per_thread";
}

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
  if (auto st = check_patch_coordinates(s, config); !st) return st;
  return check_single_block_coverage(s, config);
}

launch_status launch_single_block_patch(const float* a, const float* b, float* c, const shape& s,
                                        const matmul_config& config, const launch_context& context) {
  patch_kernel_for(config)<<<1, dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n, s.k,
                                                                                   config.tile_width);
  return launch_status::after_launch(wide_patch(config) ? "MM2 patch_per_thread_wide (one block)"
                                                      : "MM2 patch_per_thread (one block)");
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
  if (auto st = check_patch_coordinates(s, config); !st) return st;
  const grid_2d g = patch_per_thread_grid(s, config);
  if (g.y > limits.max_grid_yz) return launch_status::refused("m = " + std::to_string(s.m) + " needs " + std::to_string(g.y) +
                                                              " row blocks, more than this device allows: raise TILE_WIDTH or the block");
  return launch_status::ok();
}

launch_status launch_patch_per_thread(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                      const launch_context& context) {
  const grid_2d g = patch_per_thread_grid(s, config);
  patch_kernel_for(config)<<<dim3(g.x, g.y), dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n,
                                                                                                   s.k, config.tile_width);
  return launch_status::after_launch(wide_patch(config) ? "MM4 patch_per_thread_wide" : "MM4 patch_per_thread");
}

}  // namespace kc::matmul::detail
