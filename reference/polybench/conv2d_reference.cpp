#include "reference/polybench/conv2d_reference.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace kc::reference::polybench {

namespace {

void check_sizes(std::size_t a, std::size_t ni, std::size_t nj, std::size_t out, const char* what) {
  if (a != ni * nj || out != ni * nj)
    throw std::invalid_argument(std::string("conv2d reference: a and ") + what + " must hold ni * nj elements");
}

}  // namespace

void conv2d(std::span<const double> a, std::size_t ni, std::size_t nj, std::span<double> b, std::span<double> magnitude) {
  check_sizes(a.size(), ni, nj, b.size(), "b");
  check_sizes(a.size(), ni, nj, magnitude.size(), "magnitude");
  if (ni < 3 || nj < 3) return;
  using c = conv2d_coefficients;
  const long rows = static_cast<long>(ni);
#pragma omp parallel for schedule(static)
  for (long i = 1; i < rows - 1; ++i) {
    const double* up = a.data() + (static_cast<std::size_t>(i) - 1) * nj;
    const double* mid = up + nj;
    const double* down = mid + nj;
    for (std::size_t j = 1; j + 1 < nj; ++j) {
      // PolyBench's term order; each product and sum in long double.
      const long double terms[9] = {
          static_cast<long double>(c::c11) * up[j - 1],   static_cast<long double>(c::c12) * mid[j - 1],
          static_cast<long double>(c::c13) * down[j - 1], static_cast<long double>(c::c21) * up[j],
          static_cast<long double>(c::c22) * mid[j],      static_cast<long double>(c::c23) * down[j],
          static_cast<long double>(c::c31) * up[j + 1],   static_cast<long double>(c::c32) * mid[j + 1],
          static_cast<long double>(c::c33) * down[j + 1]};
      long double sum = 0.0L, abs_sum = 0.0L;
      for (const long double t : terms) {
        sum += t;
        abs_sum += std::fabs(t);
      }
      const std::size_t at = static_cast<std::size_t>(i) * nj + j;
      b[at] = static_cast<double>(sum);
      // Rounded up: abs_sum is itself within ~9·2^-64 of Σ|c·a| (relative), far below one double ulp,
      // and the next double up covers both.
      const double m = static_cast<double>(abs_sum);
      magnitude[at] = m == 0.0 ? 0.0 : std::nextafter(m, std::numeric_limits<double>::infinity());
    }
  }
}

}  // namespace kc::reference::polybench
