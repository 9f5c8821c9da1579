// The 3×3 stencil every conv2d kernel evaluates, on three row pointers (the rows i−1, i, i+1 of a,
// or of a shared tile) at column `c`. Written term by term in PolyBench's order; the compiler may
// contract it into FMAs, which the suite's error bound allows for (tests/polybench/conv2d_checks.hpp).
// `Coefficients` is conv2d::coefficients for the correct kernels (a known-bad row passes its own).
#pragma once

#include "kernels/polybench/conv2d/conv2d.hpp"

#include <cstddef>

namespace kc::polybench::conv2d::detail {

template <class Coefficients>
__device__ __forceinline__ double stencil3x3(const double* up, const double* mid, const double* down, std::size_t c) {
  using k = Coefficients;
  return k::c11 * up[c - 1] + k::c12 * mid[c - 1] + k::c13 * down[c - 1]  //
       + k::c21 * up[c] + k::c22 * mid[c] + k::c23 * down[c]              //
       + k::c31 * up[c + 1] + k::c32 * mid[c + 1] + k::c33 * down[c + 1];
}

// This thread's element of a 2-D launch: column from x, row from y (64-bit: ni·nj may pass 2^31).
__device__ __forceinline__ std::size_t thread_col() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t thread_row() {
  return static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
}

// 1 <= row < ni − 1 and 1 <= col < nj − 1 (false everywhere when ni < 3 or nj < 3).
__device__ __forceinline__ bool is_interior(std::size_t row, std::size_t col, std::size_t ni, std::size_t nj) {
  return row >= 1 && col >= 1 && row + 1 < ni && col + 1 < nj;
}

// The block's (blockDim.y + 2) × (blockDim.x + 2) tile of a — its own elements and a one-element
// halo — into `tile` (row-major, blockDim.x + 2 wide), every thread loading elements k, k + threads,
// ... (the halo needs more elements than the block has threads). Outside a (the halo of an edge
// block) the tile holds 0, which no interior output reads: their neighbours are all inside a. The
// caller synchronises before reading it.
__device__ __forceinline__ void load_halo_tile(double* tile, const double* __restrict__ a, std::size_t ni, std::size_t nj) {
  const unsigned tile_w = blockDim.x + 2, tile_elements = tile_w * (blockDim.y + 2);
  const std::size_t row0 = static_cast<std::size_t>(blockIdx.y) * blockDim.y;
  const std::size_t col0 = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  for (unsigned k = threadIdx.y * blockDim.x + threadIdx.x; k < tile_elements; k += blockDim.x * blockDim.y) {
    const std::size_t r = k / tile_w, c = k % tile_w;
    const bool inside = row0 + r >= 1 && col0 + c >= 1 && row0 + r - 1 < ni && col0 + c - 1 < nj;
    tile[k] = inside ? a[(row0 + r - 1) * nj + (col0 + c - 1)] : 0.0;
  }
}

// This thread's output from the tile load_halo_tile filled (its row and column inside the block).
__device__ __forceinline__ void stencil_from_tile(const double* tile, double* __restrict__ b, std::size_t ni, std::size_t nj) {
  const unsigned tile_w = blockDim.x + 2;
  const std::size_t row = thread_row(), col = thread_col();
  if (!is_interior(row, col, ni, nj)) return;
  const double* up = tile + threadIdx.y * tile_w;
  b[row * nj + col] = stencil3x3<coefficients>(up, up + tile_w, up + 2 * tile_w, threadIdx.x + 1);
}

}  // namespace kc::polybench::conv2d::detail
