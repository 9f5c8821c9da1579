// The rule a timed call's outputs are judged by (grading/judged_timing.hpp): what a timed call wrote
// must hold, within rounding, what two untimed calls on the same inputs wrote. Host-only arithmetic:
// tests/grading tests it on any machine.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace kc::grading {

// How far apart two runs of one call on the same inputs may lie and still be the same answer: a
// summation order (atomics) moves a float total by rounding, ~1e-7 of it per add, far below this.
// Wider than that is not rounding; and the band is the judge's, not set by how far apart the
// submission's own two untimed answers lie (a second answer of +inf would otherwise admit anything).
inline constexpr double rounding_band = 1e-4;

template <class T>
bool within_rounding(T x, T y) {
  if (std::memcmp(&x, &y, sizeof(T)) == 0) return true;
  if (!std::isfinite(x) || !std::isfinite(y)) return false;  // NaN (the poison) and infinities: bit for bit only
  return std::abs(static_cast<double>(x) - static_cast<double>(y)) <=
         rounding_band * std::max(std::abs(static_cast<double>(x)), std::abs(static_cast<double>(y)));
}

// The first element (of element_bytes: 4 float, 8 double) of `got` that is not, within rounding, what
// both untimed calls wrote; bytes / element_bytes when every element is.
inline std::size_t first_outside_rounding(int element_bytes, const unsigned char* got, const unsigned char* first,
                                          const unsigned char* second, std::size_t bytes) {
  const auto scan = [&](auto zero) {
    using T = decltype(zero);
    const std::size_t n = bytes / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) {
      T g, a, b;
      std::memcpy(&g, got + i * sizeof(T), sizeof(T));
      std::memcpy(&a, first + i * sizeof(T), sizeof(T));
      std::memcpy(&b, second + i * sizeof(T), sizeof(T));
      if (!within_rounding(g, a) || !within_rounding(g, b)) return i;
    }
    return n;
  };
  return element_bytes == 8 ? scan(0.0) : scan(0.0f);
}

}  // namespace kc::grading
