// PolyBench's loops in double, as seed 004's serial program ran them, and the same loops
// parallelised with OpenMP: the CPU side of the benchmark's speedups (issue 10 §5). These are
// *baselines* a GPU time is divided into, not the references the tests compare with: those
// (conv2d_reference, atax_reference, covariance_reference) accumulate in long double for the error
// bounds, which would make a slow and unfair baseline. A CPU test holds each loop to its reference.
#pragma once

#include <cstddef>
#include <span>

namespace kc::reference::polybench::loops {

// Threads the OpenMP loops use (omp_get_max_threads).
int openmp_threads();

// Conv2D 3×3 over the interior of an ni × nj array (PolyBench's coefficients and loop order).
void conv2d_serial(std::span<const double> a, std::span<double> b, std::size_t ni, std::size_t nj);
void conv2d_openmp(std::span<const double> a, std::span<double> b, std::size_t ni, std::size_t nj);

// ATAX: y = Aᵀ(A·x), A nx × ny row-major; tmp has nx entries.
void atax_serial(std::span<const double> a, std::span<const double> x, std::span<double> tmp, std::span<double> y,
                 std::size_t nx, std::size_t ny);
void atax_openmp(std::span<const double> a, std::span<const double> x, std::span<double> tmp, std::span<double> y,
                 std::size_t nx, std::size_t ny);

// Covariance (PolyBench semantics): data n rows × m columns, centred in place; mean m; symmat m × m.
void covariance_serial(std::span<double> data, std::span<double> mean, std::span<double> symmat, std::size_t m,
                       std::size_t n, double float_n);
// The serial loop with the product's outer loop cut to its first `product_rows` rows (symmat[j1][j2]
// for j1 < product_rows, j2 >= j1, and their mirrors; the rest of symmat untouched): what the
// benchmark times at 1024², scaled by covariance_product_pairs (mean and centring, m·n each, are
// under 0.2% of the m(m+1)/2·n product there).
void covariance_serial_first_rows(std::span<double> data, std::span<double> mean, std::span<double> symmat,
                                  std::size_t m, std::size_t n, double float_n, std::size_t product_rows);
// The (j1, j2 >= j1) pairs of the product's first `rows` rows: m(m+1)/2 for all m of them.
std::size_t covariance_product_pairs(std::size_t m, std::size_t rows);
void covariance_openmp(std::span<double> data, std::span<double> mean, std::span<double> symmat, std::size_t m,
                       std::size_t n, double float_n);
// The OpenMP loop cut the same way: what the benchmark times at both sizes, scaled by
// covariance_product_pairs (issue 35: the whole loop at 2048² was 4.3 s of the main job's alone phase
// on an H200's 16-core host). The first rows' pairs are nearly as long as any (m − j1 for j1 small),
// so the cut loop's threads stay as evenly loaded as the whole one's.
void covariance_openmp_first_rows(std::span<double> data, std::span<double> mean, std::span<double> symmat,
                                  std::size_t m, std::size_t n, double float_n, std::size_t product_rows);

}  // namespace kc::reference::polybench::loops
