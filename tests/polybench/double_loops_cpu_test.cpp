// The benchmark's CPU baselines (reference/polybench/double_loops.*) compute what the references
// compute: each double loop, serial and OpenMP, against its long-double reference within the same
// error bounds the GPU is held to (a loop in double is one more summation order). A baseline that
// computed something else — or less — would make the speedups meaningless.
#include "fixtures/error_bounds.hpp"
#include "fixtures/generators.hpp"
#include "reference/polybench/atax_reference.hpp"
#include "reference/polybench/conv2d_reference.hpp"
#include "reference/polybench/covariance_reference.hpp"
#include "reference/polybench/double_loops.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace kc::reference::polybench {
namespace {

std::vector<double> random_reals(std::size_t count, std::uint64_t seed, double lo, double hi) {
  std::vector<double> v(count);
  fill_uniform_reals(std::span<double>(v), seed, lo, hi);
  return v;
}

TEST(DoubleLoops, Conv2dSerialAndOpenmpMatchTheReferenceAndLeaveTheBorder) {
  const std::size_t ni = 37, nj = 53;
  const std::vector<double> a = random_reals(ni * nj, 11, -1.0, 1.0);
  std::vector<double> expected(ni * nj, 0.0), magnitude(ni * nj, 0.0);
  conv2d(a, ni, nj, expected, magnitude);
  for (const auto loop : {loops::conv2d_serial, loops::conv2d_openmp}) {
    std::vector<double> b(ni * nj, -7.0);
    loop(a, b, ni, nj);
    for (std::size_t i = 0; i < ni; ++i)
      for (std::size_t j = 0; j < nj; ++j) {
        const std::size_t k = i * nj + j;
        if (i == 0 || j == 0 || i + 1 == ni || j + 1 == nj) {
          ASSERT_EQ(b[k], -7.0) << "border (" << i << ", " << j << ") written";
          continue;
        }
        // 9 products, 8 additions: γ_9·Σ|c·a| + the reference's rounding to double.
        ASSERT_LE(std::fabs(b[k] - expected[k]), double_gamma(9) * magnitude[k] + 0x1p-53 * std::fabs(expected[k]))
            << "(" << i << ", " << j << ")";
      }
  }
}

TEST(DoubleLoops, AtaxSerialAndOpenmpMatchTheReference) {
  const std::size_t nx = 41, ny = 300;  // ny > 256: the OpenMP loop's column blocks split y
  const std::vector<double> a = random_reals(nx * ny, 12, -1.0, 1.0), x = random_reals(ny, 13, -1.0, 1.0);
  const atax_result r = atax(a, x, nx, ny);
  for (const auto loop : {loops::atax_serial, loops::atax_openmp}) {
    std::vector<double> tmp(nx), y(ny, 99.0);
    loop(a, x, tmp, y, nx, ny);
    for (std::size_t j = 0; j < ny; ++j)
      ASSERT_LE(std::fabs(y[j] - r.y[j]), double_gamma(nx + ny) * r.magnitude[j] + 0x1p-53 * std::fabs(r.y[j])) << j;
  }
}

TEST(DoubleLoops, CovarianceSerialAndOpenmpMatchTheReference) {
  const int n = 45, m = 19;
  const std::vector<double> data = random_reals(static_cast<std::size_t>(n * m), 14, 0.0, 2.0);
  const covariance_result r = covariance(data, n, m, n);
  for (const auto loop : {loops::covariance_serial, loops::covariance_openmp}) {
    std::vector<double> work = data, mean(m), symmat(static_cast<std::size_t>(m * m));
    loop(work, mean, symmat, m, n, n);
    for (int j = 0; j < m; ++j) ASSERT_LE(std::fabs(mean[j] - r.mean[j]), double_gamma(n + 1) * r.abs_data_sum[j] / n) << j;
    // A loose but sufficient bound here (the GPU's exact one is in covariance_checks.cpp): the
    // centring error enters each product at most once per factor, so γ_(2n+4)·Σ|d·d| + the mean
    // error times Σ|d| over both columns.
    for (int j1 = 0; j1 < m; ++j1)
      for (int j2 = 0; j2 < m; ++j2) {
        const std::size_t k = static_cast<std::size_t>(j1 * m + j2);
        const double mean_error = double_gamma(n + 1) * (r.abs_data_sum[j1] + r.abs_data_sum[j2]) / n;
        const double bound = double_gamma(2 * n + 4) * r.abs_product_sum[k] +
                             mean_error * (r.abs_centred_sum[j1] + r.abs_centred_sum[j2]) + 0x1p-53 * std::fabs(r.symmat[k]);
        ASSERT_LE(std::fabs(symmat[k] - r.symmat[k]), bound) << j1 << ", " << j2;
      }
  }
}

// The benchmark times the serial and the OpenMP covariance on the product's first rows and scales by
// the pairs they hold: those rows must be the full loop's, bit for bit, and the rest left alone.
TEST(DoubleLoops, CovarianceFirstRowsAreTheFullLoopCut) {
  const int n = 23, m = 17;
  const std::vector<double> data = random_reals(static_cast<std::size_t>(n * m), 15, 0.0, 2.0);
  std::vector<double> full_work = data, full_mean(m), full(static_cast<std::size_t>(m * m));
  loops::covariance_serial(full_work, full_mean, full, m, n, n);
  for (const std::size_t rows : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{17}, std::size_t{40}}) {
    // The OpenMP cut too (the benchmark times it at both sizes): the same sums in the same order per
    // pair, so the same bits.
    for (const auto cut : {loops::covariance_serial_first_rows, loops::covariance_openmp_first_rows}) {
      std::vector<double> work = data, mean(m), symmat(static_cast<std::size_t>(m * m), -7.0);
      cut(work, mean, symmat, m, n, n, rows);
      EXPECT_EQ(mean, full_mean);
      EXPECT_EQ(work, full_work) << "centred in place, whatever the rows";
      for (std::size_t j1 = 0; j1 < static_cast<std::size_t>(m); ++j1)
        for (std::size_t j2 = 0; j2 < static_cast<std::size_t>(m); ++j2) {
          const bool computed = std::min(j1, j2) < rows;
          EXPECT_EQ(symmat[j1 * m + j2], computed ? full[j1 * m + j2] : -7.0) << rows << " rows: " << j1 << ", " << j2;
        }
    }
  }
  EXPECT_EQ(loops::covariance_product_pairs(17, 17), 17u * 18u / 2u);
  EXPECT_EQ(loops::covariance_product_pairs(17, 40), 17u * 18u / 2u);
  EXPECT_EQ(loops::covariance_product_pairs(17, 0), 0u);
  EXPECT_EQ(loops::covariance_product_pairs(17, 2), 17u + 16u);
  EXPECT_EQ(loops::covariance_product_pairs(1024, 128), 122944u);
}

}  // namespace
}  // namespace kc::reference::polybench
