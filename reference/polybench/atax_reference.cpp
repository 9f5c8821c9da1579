#include "reference/polybench/atax_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace kc::reference::polybench {

// The error analysis of the tolerance takes the reference's accumulation at unit roundoff <= 2^-64.
static_assert(std::numeric_limits<long double>::digits >= 64,
              "the ATAX reference accumulates in long double and needs a 64-bit significand (x86-64) or more");

atax_result atax(std::span<const double> a, std::span<const double> x, std::size_t nx, std::size_t ny) {
  if (a.size() != nx * ny || x.size() != ny)
    throw std::invalid_argument("atax reference: A must hold nx*ny values and x ny values");
  const auto rows = static_cast<std::int64_t>(nx);
  const auto cols = static_cast<std::int64_t>(ny);

  // Phase 1: tmp[i] = Σ_j A[i][j]·x[j] and s_i = Σ_j |A[i][j]·x[j]|, j ascending.
  std::vector<long double> tmp(nx), s(nx);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < rows; ++i) {
    const double* row = a.data() + static_cast<std::size_t>(i) * ny;
    long double sum = 0.0L, abs_sum = 0.0L;
    for (std::int64_t j = 0; j < cols; ++j) {
      const long double term = static_cast<long double>(row[j]) * x[static_cast<std::size_t>(j)];
      sum += term;
      abs_sum += std::fabs(term);
    }
    tmp[static_cast<std::size_t>(i)] = sum;
    s[static_cast<std::size_t>(i)] = abs_sum;
  }

  // Phase 2: y[j] += A[i][j]·tmp[i], i ascending for every j; each thread owns a range of columns and
  // walks the rows in order (contiguous row segments).
  std::vector<long double> y(ny, 0.0L), m(ny, 0.0L);
  constexpr std::int64_t columns_per_task = 512;
#pragma omp parallel for schedule(static)
  for (std::int64_t j0 = 0; j0 < cols; j0 += columns_per_task) {
    const std::int64_t j1 = std::min(cols, j0 + columns_per_task);
    for (std::int64_t i = 0; i < rows; ++i) {
      const double* row = a.data() + static_cast<std::size_t>(i) * ny;
      const long double t = tmp[static_cast<std::size_t>(i)], abs_t = s[static_cast<std::size_t>(i)];
      for (std::int64_t j = j0; j < j1; ++j) {
        const long double aij = row[j];
        y[static_cast<std::size_t>(j)] += aij * t;
        m[static_cast<std::size_t>(j)] += std::fabs(aij) * abs_t;
      }
    }
  }

  atax_result result;
  result.y.assign(y.begin(), y.end());
  result.magnitude.assign(m.begin(), m.end());
  result.tmp.assign(tmp.begin(), tmp.end());
  return result;
}

}  // namespace kc::reference::polybench
