#include "reference/polybench/double_loops.hpp"

#include <algorithm>

#include <omp.h>

namespace kc::reference::polybench::loops {
namespace {

constexpr double c11 = +0.2, c21 = +0.5, c31 = -0.8;
constexpr double c12 = -0.3, c22 = +0.6, c32 = -0.9;
constexpr double c13 = +0.4, c23 = +0.7, c33 = +0.10;

inline double stencil(const double* a, std::size_t i, std::size_t j, std::size_t nj) {
  const double* up = a + (i - 1) * nj;
  const double* mid = a + i * nj;
  const double* down = a + (i + 1) * nj;
  return c11 * up[j - 1] + c12 * mid[j - 1] + c13 * down[j - 1] + c21 * up[j] + c22 * mid[j] + c23 * down[j] +
         c31 * up[j + 1] + c32 * mid[j + 1] + c33 * down[j + 1];
}

}  // namespace

int openmp_threads() { return omp_get_max_threads(); }

void conv2d_serial(std::span<const double> a, std::span<double> b, std::size_t ni, std::size_t nj) {
  for (std::size_t i = 1; i + 1 < ni; ++i)
    for (std::size_t j = 1; j + 1 < nj; ++j) b[i * nj + j] = stencil(a.data(), i, j, nj);
}

void conv2d_openmp(std::span<const double> a, std::span<double> b, std::size_t ni, std::size_t nj) {
  const long long rows = static_cast<long long>(ni);
#pragma omp parallel for schedule(static)
  for (long long i = 1; i < rows - 1; ++i)
    for (std::size_t j = 1; j + 1 < nj; ++j) b[static_cast<std::size_t>(i) * nj + j] = stencil(a.data(), static_cast<std::size_t>(i), j, nj);
}

void atax_serial(std::span<const double> a, std::span<const double> x, std::span<double> tmp, std::span<double> y,
                 std::size_t nx, std::size_t ny) {
  for (std::size_t j = 0; j < ny; ++j) y[j] = 0.0;
  for (std::size_t i = 0; i < nx; ++i) {
    double t = 0.0;
    for (std::size_t j = 0; j < ny; ++j) t += a[i * ny + j] * x[j];
    tmp[i] = t;
    for (std::size_t j = 0; j < ny; ++j) y[j] += a[i * ny + j] * t;
  }
}

void atax_openmp(std::span<const double> a, std::span<const double> x, std::span<double> tmp, std::span<double> y,
                 std::size_t nx, std::size_t ny) {
  const long long rows = static_cast<long long>(nx), cols = static_cast<long long>(ny);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < rows; ++i) {
    double t = 0.0;
    for (std::size_t j = 0; j < ny; ++j) t += a[static_cast<std::size_t>(i) * ny + j] * x[j];
    tmp[static_cast<std::size_t>(i)] = t;
  }
  // y = Aᵀ·tmp by column blocks: each thread owns a range of y and walks the rows (row-major reads).
#pragma omp parallel for schedule(static)
  for (long long j0 = 0; j0 < cols; j0 += 256) {
    const std::size_t j1 = static_cast<std::size_t>(j0 + 256 < cols ? j0 + 256 : cols);
    for (std::size_t j = static_cast<std::size_t>(j0); j < j1; ++j) y[j] = 0.0;
    for (std::size_t i = 0; i < nx; ++i)
      for (std::size_t j = static_cast<std::size_t>(j0); j < j1; ++j) y[j] += a[i * ny + j] * tmp[i];
  }
}

void covariance_serial(std::span<double> data, std::span<double> mean, std::span<double> symmat, std::size_t m,
                       std::size_t n, double float_n) {
  covariance_serial_first_rows(data, mean, symmat, m, n, float_n, m);
}

std::size_t covariance_product_pairs(std::size_t m, std::size_t rows) {
  rows = std::min(rows, m);
  return rows * m - rows * (rows - 1) / 2;  // Σ_{j1 < rows} (m - j1)
}

void covariance_serial_first_rows(std::span<double> data, std::span<double> mean, std::span<double> symmat,
                                  std::size_t m, std::size_t n, double float_n, std::size_t product_rows) {
  for (std::size_t j = 0; j < m; ++j) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += data[i * m + j];
    mean[j] = s / float_n;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) data[i * m + j] -= mean[j];
  for (std::size_t j1 = 0; j1 < std::min(m, product_rows); ++j1)
    for (std::size_t j2 = j1; j2 < m; ++j2) {
      double s = 0.0;
      for (std::size_t i = 0; i < n; ++i) s += data[i * m + j1] * data[i * m + j2];
      symmat[j1 * m + j2] = symmat[j2 * m + j1] = s;
    }
}

void covariance_openmp(std::span<double> data, std::span<double> mean, std::span<double> symmat, std::size_t m,
                       std::size_t n, double float_n) {
  covariance_openmp_first_rows(data, mean, symmat, m, n, float_n, m);
}

void covariance_openmp_first_rows(std::span<double> data, std::span<double> mean, std::span<double> symmat,
                                  std::size_t m, std::size_t n, double float_n, std::size_t product_rows) {
  const long long cols = static_cast<long long>(m), rows = static_cast<long long>(n);
  const long long product = static_cast<long long>(std::min(m, product_rows));
#pragma omp parallel for schedule(static)
  for (long long j = 0; j < cols; ++j) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += data[i * m + static_cast<std::size_t>(j)];
    mean[static_cast<std::size_t>(j)] = s / float_n;
  }
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < m; ++j) data[static_cast<std::size_t>(i) * m + j] -= mean[j];
  // The upper triangle's rows shrink: dynamic scheduling balances them.
#pragma omp parallel for schedule(dynamic, 4)
  for (long long j1 = 0; j1 < product; ++j1)
    for (std::size_t j2 = static_cast<std::size_t>(j1); j2 < m; ++j2) {
      double s = 0.0;
      for (std::size_t i = 0; i < n; ++i) s += data[i * m + static_cast<std::size_t>(j1)] * data[i * m + j2];
      symmat[static_cast<std::size_t>(j1) * m + j2] = symmat[j2 * m + static_cast<std::size_t>(j1)] = s;
    }
}

}  // namespace kc::reference::polybench::loops
