#include "reference/polybench/covariance_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <cstddef>
#include <limits>
#include <stdexcept>

// Only where every sum rounds on its own: reference/polybench/CMakeLists.txt turns contraction off for
// this file (KC_COVARIANCE_NO_CONTRACTION), and no fast-math model may reassociate.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(KC_COVARIANCE_NO_CONTRACTION) && \
    !defined(__FAST_MATH__)
#include <immintrin.h>
#define KC_COVARIANCE_DOUBLE_DOUBLE 1
#endif

namespace kc::reference::polybench {

namespace {

// ---- the double-double route (covariance_reference.hpp) ----
//
// Why it is as exact as the x87 route (the suite's bounds, tests/polybench/covariance_checks.cpp, take
// the reference's own error as γ_n(u_L)·P, u_L = 2^-64, P = Σ_i|d_i1·d_i2|, d the long double centred
// values; u = 2^-53 below):
//   Each d has a 64-bit significand, so d = h + l exactly with h = fl53(d) and l = d − h (11 bits at
//   most: a double, |l| <= u·|d|, |h| <= (1 + u)·|d|). Then
//   Σ d1·d2 = Σ (h1·h2 + h1·l2 + l1·h2 + l1·l2), and per term h1·h2 = p_i + r_i exactly (p_i = fl(h1·h2),
//   r_i = fma(h1, h2, −p_i): TwoProduct), and each lane's running p_acc ⊕ p_i = t + q_i exactly (TwoSum).
//   So the exact sum is the lanes' final p_acc plus Σ_i c_i, c_i = q_i + r_i + h1·l2 + l1·h2 + l1·l2, and
//   the only error is in summing the c_i in double, where each passes through at most n + 4 roundings:
//   at most γ_(n+4)(u)·Σ|c_i|-terms, with Σ|q_i| <= n·u·(1 + u)^(n/4 + 2)·P (|q_i| <= u·|t|, t a lane's
//   running sum of at most n/4 rounded |h1·h2| <= (1 + u)²·|d1·d2|), |r_i| <= u·|h1·h2|, and the cross
//   terms <= (2u(1 + u) + u²)·|d1·d2|: Σ <= (n + 4)·u·(1 + u)^(n/4 + 3)·P, and (1 + u)^(n/4 + 3) < 1.01
//   for n < 2^52, absorbed in the factor 2 below.
//   The four lanes' combination (TwoSum of their p_acc into the sum of the rest) adds 8 roundings more
//   to that second-order sum. In all, |result − Σ d1·d2| <= 2·(n + 12)²·u²·P before the final rounding
//   to double, which is <= γ_n(u_L)·P = n·2^-64/(1 − n·2^-64)·P whenever (n + 12)²/n <= 2^41: every n
//   below 2^40 (the route takes n < 2^30 only).
//   Range: the transformations are exact while no product or error term leaves double's range. The
//   route takes data whose nonzero |x| lie in [2^-400, 2^400] only (data_in_double_double_range): then
//   |d| <= 2^401 (products <= 2^802), and every nonzero d, h or l is a multiple of long double's ulp at
//   2^-400, 2^-463, so products and their errors stay above 2^-1022 (FMA's TwoProduct is exact when
//   the factors' exponents sum to at least -970: 2·(-463) = -926).
// Cost: 15 vector operations per 4 products (the magnitude's two included), against the x87 route's
// 10-byte loads and scalar multiply-adds: 3.2-3.4x faster (covariance_reference.hpp).

// One lane-wise double-double accumulator per sum: the Dot2 high parts and the low parts' sum; beside
// them the magnitude Σ|h1|·|h2| in double, from the high parts (the x87 route sums the same |h|, as
// fl53(|d|), in one accumulator per chunk: the two differ by their summation's roundings, <= γ_n(u)·P
// each, second order where the bounds use P).
struct alignas(32) dd_lanes {
  double high[4];
  double low[4];
  double magnitude[4];
};

#ifdef KC_COVARIANCE_DOUBLE_DOUBLE
__attribute__((target("avx2,fma"))) inline void dd_step(__m256d a, __m256d a_low, __m256d a_abs, const double* b_high,
                                                          const double* b_low, __m256d& high, __m256d& low,
                                                          __m256d& magnitude) {
  const __m256d b = _mm256_loadu_pd(b_high), bl = _mm256_loadu_pd(b_low);
  magnitude = _mm256_fmadd_pd(a_abs, _mm256_andnot_pd(_mm256_set1_pd(-0.0), b), magnitude);
  const __m256d product = _mm256_mul_pd(a, b);
  const __m256d product_error = _mm256_fmsub_pd(a, b, product);  // a·b − product, exactly
  const __m256d sum = _mm256_add_pd(high, product);               // TwoSum(high, product)
  const __m256d virtual_product = _mm256_sub_pd(sum, high);
  const __m256d sum_error = _mm256_add_pd(_mm256_sub_pd(high, _mm256_sub_pd(sum, virtual_product)),
                                          _mm256_sub_pd(product, virtual_product));
  high = sum;
  __m256d c = _mm256_add_pd(sum_error, product_error);
  c = _mm256_fmadd_pd(a, bl, c);
  c = _mm256_fmadd_pd(a_low, b, c);
  c = _mm256_fmadd_pd(a_low, bl, c);
  low = _mm256_add_pd(low, c);
}

// Rows [lo, hi) of column x against `count` (1-4) columns y, into acc[0..count): four sums at once, so
// sixteen add chains are in flight. Rows past the last multiple of 4 are taken as a zero-padded group.
__attribute__((target("avx2,fma"))) void dd_dot(const double* x_high, const double* x_low, const double* const* y_high,
                                                const double* const* y_low, int count, std::size_t lo, std::size_t hi,
                                                dd_lanes* acc) {
  dd_lanes spare[3] = {};  // the unused sums' lanes: computed, never read
  dd_lanes* into[4] = {&acc[0], count > 1 ? &acc[1] : &spare[0], count > 2 ? &acc[2] : &spare[1],
                       count > 3 ? &acc[3] : &spare[2]};
  const double* yh[4];
  const double* yl[4];
  for (int k = 0; k < 4; ++k) yh[k] = y_high[k < count ? k : 0], yl[k] = y_low[k < count ? k : 0];
  const __m256d sign = _mm256_set1_pd(-0.0);
  __m256d high[4], low[4], magnitude[4];
  for (int k = 0; k < 4; ++k)
    high[k] = _mm256_load_pd(into[k]->high), low[k] = _mm256_load_pd(into[k]->low),
    magnitude[k] = _mm256_load_pd(into[k]->magnitude);
  std::size_t i = lo;
  for (; i + 4 <= hi; i += 4) {
    const __m256d a = _mm256_loadu_pd(x_high + i), al = _mm256_loadu_pd(x_low + i);
    const __m256d a_abs = _mm256_andnot_pd(sign, a);
    for (int k = 0; k < 4; ++k) dd_step(a, al, a_abs, yh[k] + i, yl[k] + i, high[k], low[k], magnitude[k]);
  }
  if (i < hi) {
    alignas(32) double a[4] = {}, al[4] = {}, b[4][4] = {}, bl[4][4] = {};
    for (std::size_t r = i; r < hi; ++r) {
      a[r - i] = x_high[r], al[r - i] = x_low[r];
      for (int k = 0; k < 4; ++k) b[k][r - i] = yh[k][r], bl[k][r - i] = yl[k][r];
    }
    const __m256d va = _mm256_load_pd(a), val = _mm256_load_pd(al), va_abs = _mm256_andnot_pd(sign, va);
    for (int k = 0; k < 4; ++k) dd_step(va, val, va_abs, b[k], bl[k], high[k], low[k], magnitude[k]);
  }
  for (int k = 0; k < 4; ++k)
    _mm256_store_pd(into[k]->high, high[k]), _mm256_store_pd(into[k]->low, low[k]),
    _mm256_store_pd(into[k]->magnitude, magnitude[k]);
}
#endif

// The four lanes' sums as one double: their high parts added by TwoSum (the errors kept), then the low
// parts, then the one rounding.
double dd_total(const dd_lanes& s) {
  double high = s.high[0], low = s.low[0];
  for (int k = 1; k < 4; ++k) {
    const double sum = high + s.high[k];
    const double virtual_part = sum - high;
    low += (high - (sum - virtual_part)) + (s.high[k] - virtual_part);
    low += s.low[k];
    high = sum;
  }
  return high + low;
}

}  // namespace

// The range the double-double route's transformations stay exact in (above): every nonzero |x| in
// [2^-400, 2^400], none infinite or NaN.
bool data_in_double_double_range(std::span<const double> data) {
  bool in_range = true;
  const std::int64_t count = static_cast<std::int64_t>(data.size());
#pragma omp parallel for reduction(&& : in_range) schedule(static)
  for (std::int64_t k = 0; k < count; ++k) {
    const double x = std::fabs(data[static_cast<std::size_t>(k)]);
    in_range = in_range && (x == 0.0 || (x >= 0x1p-400 && x <= 0x1p400));
  }
  return in_range;
}

// The double-double route's proof holds below 2^40 rows; it takes n < 2^30.
dot_route automatic_route(int n) {
  return double_double_available() && n < (1 << 30) ? dot_route::double_double : dot_route::x87_long_double;
}

bool double_double_available() {
#ifdef KC_COVARIANCE_DOUBLE_DOUBLE
  __builtin_cpu_init();  // idempotent; needed where this runs before the runtime's own detection
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

void covariance_polybench_init(std::span<double> data, int n, int m) {
  if (data.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(m))
    throw std::invalid_argument("covariance_polybench_init: data must hold n * m doubles");
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      data[static_cast<std::size_t>(i) * m + j] = static_cast<double>(static_cast<long long>(i) * j) / m;
}

double long_double_unit_roundoff() { return std::ldexp(1.0, -std::numeric_limits<long double>::digits); }

covariance_result covariance(std::span<const double> data, int n, int m, double float_n, dot_route route) {
  const std::size_t rows = static_cast<std::size_t>(n), cols = static_cast<std::size_t>(m);
  if (n < 1 || m < 1 || data.size() != rows * cols)
    throw std::invalid_argument("covariance reference: data must hold n * m doubles, n and m at least 1");
  if (route == dot_route::double_double && !double_double_available())
    throw std::invalid_argument("covariance reference: the double-double route needs a CPU with AVX2 and FMA");
  bool double_double = (route == dot_route::automatic ? automatic_route(n) : route) == dot_route::double_double;
  if (double_double && !data_in_double_double_range(data)) {
    if (route == dot_route::double_double)
      throw std::invalid_argument("covariance reference: the double-double route needs every nonzero |x| in [2^-400, 2^400]");
    double_double = false;  // automatic: the x87 route, whose range is long double's
  }
  covariance_result r;
  r.mean.resize(cols);
  r.abs_data_sum.resize(cols);
  r.abs_centred_sum.resize(cols);
  r.symmat.resize(cols * cols);
  r.abs_product_sum.resize(cols * cols);

  // Centred data column by column (column j contiguous), so each dot product below reads two
  // contiguous columns; |d| in double beside it for the magnitudes. The x87 route keeps the long
  // double values; the double-double route their exact split into two doubles, high and low.
  // Columns `stride` elements apart, not `rows`: at a power-of-two row count (1024, 2048) the columns
  // the dot products below read together would start at the same offset modulo 4 KiB and evict each
  // other from the L1's sets (2x slower at 1024² here); 8 elements more puts them in different sets.
  const std::size_t stride = rows + 8;
  std::vector<long double> centred(double_double ? 0 : stride * cols);
  std::vector<double> centred_high(double_double ? stride * cols : 0), centred_low(double_double ? stride * cols : 0);
  std::vector<double> abs_centred(double_double ? 0 : stride * cols);  // the double-double route's is fused
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
    const std::size_t column = static_cast<std::size_t>(j) * stride;
    for (std::size_t i = 0; i < rows; ++i) {
      const long double d = static_cast<long double>(data[i * cols + j]) - mean;
      if (double_double) {
        const double high = static_cast<double>(d);
        centred_high[column + i] = high;
        centred_low[column + i] = static_cast<double>(d - high);  // exact: d's last 11 bits (in range, above)
      } else {
        centred[column + i] = d;
      }
      if (!double_double) abs_centred[column + i] = static_cast<double>(std::fabs(d));
      abs_d += std::fabs(d);
    }
    r.abs_centred_sum[j] = static_cast<double>(abs_d);
  }

  // The symmetric half, j2 >= j1. Blocked for the cache: a pair of 32-column blocks is swept in chunks
  // of 256 rows, so a chunk of a column is read from memory once per block pair instead of once per
  // column pair (2048²: ~4 GB of traffic instead of ~64 GB). The magnitude in double is only a bound's
  // input (its relative error, <= n·2^-53, is second order there).
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
    std::vector<dd_lanes> dd_sums(double_double ? block * block : 0);  // zeroed: dd_lanes is an aggregate
    double magnitudes[block][block] = {};
    for (std::size_t lo = 0; lo < rows; lo += chunk) {
      const std::size_t hi = std::min(rows, lo + chunk);
      for (int a = 0; a < count1; ++a) {
        const std::size_t j1 = static_cast<std::size_t>(first1 + a);
        // j2 >= j1: in a diagonal block pair the columns from a on, else all of them.
        const int from = first1 == first2 ? a : 0;
        if (double_double) {
#ifdef KC_COVARIANCE_DOUBLE_DOUBLE
          const double* x_high = centred_high.data() + j1 * stride;
          const double* x_low = centred_low.data() + j1 * stride;
          for (int b = from; b < count2; b += 4) {
            const double* y_high[4];
            const double* y_low[4];
            const int count = std::min(4, count2 - b);
            for (int k = 0; k < count; ++k) {
              const std::size_t j2 = static_cast<std::size_t>(first2 + b + k) * stride;
              y_high[k] = centred_high.data() + j2, y_low[k] = centred_low.data() + j2;
            }
            dd_dot(x_high, x_low, y_high, y_low, count, lo, hi, &dd_sums[static_cast<std::size_t>(a) * block + b]);
          }
#endif
        } else {
          const long double* x = centred.data() + j1 * stride;
          int b = from;
          // Four sums at once, each with its own accumulator in PolyBench's order (i ascending): one x87
          // add chain is bound by the add's latency, four independent ones keep the unit busy (~3x
          // here). Each sum's operations and roundings are those of the one-at-a-time loop below.
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
          const double* abs_x = abs_centred.data() + j1 * stride;
          for (b = from; b < count2; ++b) {
            const double* abs_y = abs_centred.data() + static_cast<std::size_t>(first2 + b) * stride;
            double magnitude = 0.0;
#pragma omp simd reduction(+ : magnitude)
            for (std::size_t i = lo; i < hi; ++i) magnitude += abs_x[i] * abs_y[i];
            magnitudes[a][b] += magnitude;
          }
        }
      }
    }
    for (int a = 0; a < count1; ++a)
      for (int b = 0; b < count2; ++b) {
        const std::size_t j1 = static_cast<std::size_t>(first1 + a), j2 = static_cast<std::size_t>(first2 + b);
        if (j2 < j1) continue;
        const dd_lanes& lanes = double_double ? dd_sums[static_cast<std::size_t>(a) * block + b] : dd_lanes{};
        const double sum = double_double ? dd_total(lanes) : static_cast<double>(sums[a][b]);
        const double magnitude = double_double ? (lanes.magnitude[0] + lanes.magnitude[1]) +
                                                     (lanes.magnitude[2] + lanes.magnitude[3])
                                               : magnitudes[a][b];
        r.symmat[j1 * cols + j2] = r.symmat[j2 * cols + j1] = sum;
        r.abs_product_sum[j1 * cols + j2] = r.abs_product_sum[j2 * cols + j1] = magnitude;
      }
  }
  return r;
}

}  // namespace kc::reference::polybench
