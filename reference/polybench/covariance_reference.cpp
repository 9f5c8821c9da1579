#include "reference/polybench/covariance_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <cstddef>
#include <limits>
#include <stdexcept>

namespace kc::reference::polybench {

void covariance_polybench_init(std::span<double> data, int n, int m) {
  if (data.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(m))
    throw std::invalid_argument("covariance_polybench_init: data must hold n * m doubles");
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      data[static_cast<std::size_t>(i) * m + j] = static_cast<double>(static_cast<long long>(i) * j) / m;
}

double long_double_unit_roundoff() { return std::ldexp(1.0, -std::numeric_limits<long double>::digits); }

covariance_result covariance(std::span<const double> data, int n, int m, double float_n) {
  const std::size_t rows = static_cast<std::size_t>(n), cols = static_cast<std::size_t>(m);
  if (n < 1 || m < 1 || data.size() != rows * cols)
    throw std::invalid_argument("covariance reference: data must hold n * m doubles, n and m at least 1");
  covariance_result r;
  r.mean.resize(cols);
  r.abs_data_sum.resize(cols);
  r.abs_centred_sum.resize(cols);
  r.symmat.resize(cols * cols);
  r.abs_product_sum.resize(cols * cols);

  // Centred data column by column (column j contiguous), so each dot product below reads two
  // contiguous columns; |d| in double beside it for the magnitudes.
  // Columns `stride` elements apart, not `rows`: at a power-of-two row count (1024, 2048) the columns
  // the dot products below read together would start at the same offset modulo 4 KiB and evict each
  // other from the L1's sets (2x slower at 1024² here); 8 elements more puts them in different sets.
  const std::size_t stride = rows + 8;
  std::vector<long double> centred(stride * cols);
  std::vector<double> abs_centred(stride * cols);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < m; ++j) {
    long double sum = 0.0L, abs_sum = 0.0L;
    for (std::size_t i = 0; i < rows; ++i) {
      const long double x = data[i * cols + j];
      sum += x;
      abs_sum += std::fabs(x);
    }
    const long double mean = sum / static_cast<long double>(float_n);
    r.mean[j] = static_cast<double>(mean);
    r.abs_data_sum[j] = static_cast<double>(abs_sum);
    long double abs_d = 0.0L;
    long double* column = centred.data() + static_cast<std::size_t>(j) * stride;
    double* abs_column = abs_centred.data() + static_cast<std::size_t>(j) * stride;
    for (std::size_t i = 0; i < rows; ++i) {
      column[i] = static_cast<long double>(data[i * cols + j]) - mean;
      abs_column[i] = static_cast<double>(std::fabs(column[i]));
      abs_d += std::fabs(column[i]);
    }
    r.abs_centred_sum[j] = static_cast<double>(abs_d);
  }

  // The symmetric half, j2 >= j1, each sum in PolyBench's order (i inner, ascending; one running
  // accumulator). Blocked for the cache: a pair of 32-column blocks is swept in chunks of 256 rows, so
  // a chunk of a column is read from memory once per block pair instead of once per column pair
  // (2048²: ~4 GB of traffic instead of ~64 GB). The magnitude in double is only a bound's input (its
  // relative error, <= n·2^-53, is second order there).
  constexpr int block = 32;
  constexpr std::size_t chunk = 256;
  const int blocks = (m + block - 1) / block;
  std::vector<std::pair<int, int>> pairs;
  for (int b1 = 0; b1 < blocks; ++b1)
    for (int b2 = b1; b2 < blocks; ++b2) pairs.emplace_back(b1, b2);
  const std::int64_t pair_count = static_cast<std::int64_t>(pairs.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t p = 0; p < pair_count; ++p) {
    const int first1 = pairs[p].first * block, first2 = pairs[p].second * block;
    const int count1 = std::min(block, m - first1), count2 = std::min(block, m - first2);
    long double sums[block][block] = {};
    double magnitudes[block][block] = {};
    for (std::size_t lo = 0; lo < rows; lo += chunk) {
      const std::size_t hi = std::min(rows, lo + chunk);
      for (int a = 0; a < count1; ++a) {
        const std::size_t j1 = static_cast<std::size_t>(first1 + a);
        const long double* x = centred.data() + j1 * stride;
        const double* abs_x = abs_centred.data() + j1 * stride;
        // j2 >= j1: in a diagonal block pair the columns from a on, else all of them.
        int b = first1 == first2 ? a : 0;
        // Four sums at once, each with its own accumulator in the same order: one x87 add chain is
        // bound by the add's latency, four independent ones keep the unit busy (~3x here). Each sum's
        // operations and roundings are those of the one-at-a-time loop below, so the results are too.
        for (; b + 4 <= count2; b += 4) {
          const long double* y = centred.data() + static_cast<std::size_t>(first2 + b) * stride;
          const long double *y0 = y, *y1 = y + stride, *y2 = y + 2 * stride, *y3 = y + 3 * stride;
          long double s0 = sums[a][b], s1 = sums[a][b + 1], s2 = sums[a][b + 2], s3 = sums[a][b + 3];
          for (std::size_t i = lo; i < hi; ++i) {
            const long double xi = x[i];
            s0 += xi * y0[i];
            s1 += xi * y1[i];
            s2 += xi * y2[i];
            s3 += xi * y3[i];
          }
          sums[a][b] = s0, sums[a][b + 1] = s1, sums[a][b + 2] = s2, sums[a][b + 3] = s3;
        }
        for (; b < count2; ++b) {
          const long double* y = centred.data() + static_cast<std::size_t>(first2 + b) * stride;
          long double sum = sums[a][b];
          for (std::size_t i = lo; i < hi; ++i) sum += x[i] * y[i];
          sums[a][b] = sum;
        }
        for (b = first1 == first2 ? a : 0; b < count2; ++b) {
          const double* abs_y = abs_centred.data() + static_cast<std::size_t>(first2 + b) * stride;
          double magnitude = 0.0;
#pragma omp simd reduction(+ : magnitude)
          for (std::size_t i = lo; i < hi; ++i) magnitude += abs_x[i] * abs_y[i];
          magnitudes[a][b] += magnitude;
        }
      }
    }
    for (int a = 0; a < count1; ++a)
      for (int b = 0; b < count2; ++b) {
        const std::size_t j1 = static_cast<std::size_t>(first1 + a), j2 = static_cast<std::size_t>(first2 + b);
        if (j2 < j1) continue;
        r.symmat[j1 * cols + j2] = r.symmat[j2 * cols + j1] = static_cast<double>(sums[a][b]);
        r.abs_product_sum[j1 * cols + j2] = r.abs_product_sum[j2 * cols + j1] = magnitudes[a][b];
      }
  }
  return r;
}

}  // namespace kc::reference::polybench
