#include "reference/matmul_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kc::reference {

namespace {
std::uint64_t mix(std::uint64_t seed, std::uint64_t index) {  // splitmix64 finaliser
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

std::vector<double> matmul(std::span<const float> a, std::span<const float> b, int m, int n, int k) {
  std::vector<double> c(static_cast<std::size_t>(m) * n, 0.0);
  constexpr int rows = 32, depth = 128, cols = 512;  // blocks sized for L1/L2 reuse of B
#pragma omp parallel for schedule(dynamic)
  for (int i0 = 0; i0 < m; i0 += rows)
    for (int j0 = 0; j0 < n; j0 += cols)
      for (int p0 = 0; p0 < k; p0 += depth) {
        const int i1 = std::min(m, i0 + rows), j1 = std::min(n, j0 + cols), p1 = std::min(k, p0 + depth);
        for (int i = i0; i < i1; ++i) {
          double* crow = &c[static_cast<std::size_t>(i) * n];
          for (int p = p0; p < p1; ++p) {
            const double aip = a[static_cast<std::size_t>(i) * k + p];
            const float* brow = &b[static_cast<std::size_t>(p) * n];
            for (int j = j0; j < j1; ++j) crow[j] += aip * brow[j];
          }
        }
      }
  return c;
}

std::vector<double> matmul_row(std::span<const float> a, std::span<const float> b, int n, int k, int row) {
  std::vector<double> c(n, 0.0);
  for (int p = 0; p < k; ++p) {
    const double aip = a[static_cast<std::size_t>(row) * k + p];
    for (int j = 0; j < n; ++j) c[j] += aip * b[static_cast<std::size_t>(p) * n + j];
  }
  return c;
}

double matmul_element(std::span<const float> a, std::span<const float> b, int n, int k, int row, int col) {
  double sum = 0.0;
  for (int p = 0; p < k; ++p) sum += static_cast<double>(a[static_cast<std::size_t>(row) * k + p]) * b[static_cast<std::size_t>(p) * n + col];
  return sum;
}

void matmul_serial_ijk(std::span<const float> a, std::span<const float> b, std::span<float> c, int m, int n, int k) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += a[static_cast<std::size_t>(i) * k + p] * b[static_cast<std::size_t>(p) * n + j];
      c[static_cast<std::size_t>(i) * n + j] = sum;
    }
}

freivalds_side freivalds_prepare(std::span<const float> a, std::span<const float> b, int m, int n, int k, int vectors,
                                 std::uint64_t seed, int range) {
  freivalds_side side;
  side.m = m;
  side.n = n;
  for (int v = 0; v < vectors; ++v) {
    std::vector<double> x(n), bx(k), abx(m);
    for (int j = 0; j < n; ++j) {
      const std::uint64_t r = mix(seed + static_cast<std::uint64_t>(v) * 0x632BE59BD9B4E019ull, j) % (2 * static_cast<std::uint64_t>(range));
      const long long value = static_cast<long long>(r) - range;  // [-range, range - 1]
      x[j] = static_cast<double>(value >= 0 ? value + 1 : value);  // skip 0: [-range, -1] ∪ [1, range]
    }
#pragma omp parallel for schedule(static)
    for (int p = 0; p < k; ++p) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += static_cast<double>(b[static_cast<std::size_t>(p) * n + j]) * x[j];
      bx[p] = s;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; ++i) {
      double s = 0.0;
      for (int p = 0; p < k; ++p) s += static_cast<double>(a[static_cast<std::size_t>(i) * k + p]) * bx[p];
      abx[i] = s;
    }
    side.x.push_back(std::move(x));
    side.abx.push_back(std::move(abx));
  }
  return side;
}

freivalds_outcome freivalds_check(const freivalds_side& side, std::span<const float> c) {
  const int m = side.m, n = side.n;
  if (c.size() != static_cast<std::size_t>(m) * n)
    throw std::invalid_argument("freivalds_check: C must hold m * n elements of the side's product");
  std::vector<double> cx(m);
  for (std::size_t v = 0; v < side.x.size(); ++v) {
    const std::vector<double>& x = side.x[v];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; ++i) {
      double t = 0.0;
      for (int j = 0; j < n; ++j) t += static_cast<double>(c[static_cast<std::size_t>(i) * n + j]) * x[j];
      cx[i] = t;
    }
    for (int i = 0; i < m; ++i)
      if (!(side.abx[v][i] == cx[i])) return {false, static_cast<int>(v), i, side.abx[v][i], cx[i]};  // NaN compares unequal
  }
  return {};
}

freivalds_outcome freivalds(std::span<const float> a, std::span<const float> b, std::span<const float> c, int m, int n, int k,
                            int vectors, std::uint64_t seed, int range) {
  return freivalds_check(freivalds_prepare(a, b, m, n, k, vectors, seed, range), c);
}

}  // namespace kc::reference
