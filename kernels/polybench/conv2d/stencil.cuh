// The 3×3 stencil every conv2d kernel evaluates, on three row pointers (the rows i−1, i, i+1 of a,
// or of a shared tile) at column `c`. Written term by term in PolyBench's order; the compiler may
// contract it into FMAs, which the suite's error bound allows for (tests/polybench/conv2d_checks.hpp).
// `Coefficients` is conv2d::coefficients for the correct kernels (a known-bad row passes its own).
#pragma once

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

}  // namespace kc::polybench::conv2d::detail
