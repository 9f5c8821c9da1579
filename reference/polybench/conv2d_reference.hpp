// CPU reference for PolyBench Conv2D 3×3 (KERNELS.md §5, seed 004): host-only C++ with OpenMP, no
// CUDA headers. a is ni rows × nj columns, row-major; only the interior (1 <= i < ni−1,
// 1 <= j < nj−1) is computed, in PolyBench's loop order (i outer, j inner), and the border of the
// outputs is left as the caller had it, as PolyBench's CPU loop leaves it.
//
// Each output is the 9-term sum accumulated in long double (x86-64: 64-bit significand, unit
// roundoff 2^-64) and rounded once to double; beside it, the magnitude its error bound needs:
// Σ|c_k·a_k| over the 9 terms. The reference's own error is at most γ_9(2^-64)·Σ|c_k·a_k| (9
// roundings of long double: one product and up to 8 additions per term) plus 2^-53·|b| (the final
// rounding): see tests/polybench/conv2d_checks.hpp for the bound the GPU result is held to.
#pragma once

#include <cstddef>
#include <span>

namespace kc::reference::polybench {

// The PolyBench 2DCONV coefficients, written here independently of the kernels' copy
// (kernels/polybench/conv2d/conv2d.hpp); a CPU test holds the two equal. cRC: R names the column
// offset (1: j−1, 2: j, 3: j+1), C the row offset (1: i−1, 2: i, 3: i+1).
struct conv2d_coefficients {
  static constexpr double c11 = +0.2, c21 = +0.5, c31 = -0.8;
  static constexpr double c12 = -0.3, c22 = +0.6, c32 = -0.9;
  static constexpr double c13 = +0.4, c23 = +0.7, c33 = +0.10;
};

// b[i][j] (interior) := Σ c·a in long double, rounded once; magnitude[i][j] := Σ|c·a| (rounded up
// to the next double, so a tolerance built from it is never below the exact one). b and magnitude
// hold ni·nj doubles each; their borders are not written. OpenMP over rows.
void conv2d(std::span<const double> a, std::size_t ni, std::size_t nj, std::span<double> b, std::span<double> magnitude);

}  // namespace kc::reference::polybench
