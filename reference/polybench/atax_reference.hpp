// CPU reference for PolyBench ATAX (seed 004): y = Aᵀ·(A·x), A nx × ny row-major, double inputs.
// Host-only C++ with OpenMP, no CUDA headers.
//
// PolyBench's loop order: for each row i, tmp[i] = Σ_j A[i][j]·x[j] (j ascending), then
// y[j] += A[i][j]·tmp[i] for every j (so each y[j] sums over i ascending). Here every sum is
// accumulated in long double (x86-64: 64-bit significand, unit roundoff 2^-64; tmp is kept in long
// double between the phases) and each y[j] rounded once to double. OpenMP splits rows among threads
// in the first phase and columns in the second; each sum keeps PolyBench's order, so the result
// does not depend on the thread count.
//
// Beside y, the magnitude the error bound needs (tests/polybench/atax_checks.hpp):
//   s_i = Σ_j |A[i][j]|·|x[j]|,   M_j = Σ_i |A[i][j]|·s_i
// (sums of non-negative terms: computed to within a relative 2^-52 or so).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace kc::reference::polybench {

struct atax_result {
  std::vector<double> y;          // ny entries: Aᵀ·(A·x), rounded once
  std::vector<double> magnitude;  // ny entries: M_j
  std::vector<double> tmp;        // nx entries: A·x, rounded once (for tests and failure dumps)
};

// a holds nx·ny values, x ny. Cost: 2·nx·ny multiply-adds for y and as many for the magnitudes, in
// long double (~0.1 s at 4096 × 4096 on a few cores).
atax_result atax(std::span<const double> a, std::span<const double> x, std::size_t nx, std::size_t ny);

}  // namespace kc::reference::polybench
