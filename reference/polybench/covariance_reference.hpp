// CPU reference for PolyBench covariance (seed 004, KERNELS.md §5 and §6): host-only C++ with OpenMP,
// independent of the GPU code. data is n rows × m columns, row-major; mean has m entries; symmat is
// m × m (both triangles).
//
// It follows PolyBench's loops — mean[j] = Σ_i data[i][j] / FLOAT_N (j outer, i inner); data[i][j] −=
// mean[j]; symmat[j1][j2] = Σ_i data[i][j1]·data[i][j2] for j2 >= j1 (i inner, in order), mirrored —
// with every intermediate (sums, mean, centred data) in long double, each output rounded once to
// double. Beside the outputs it returns the magnitudes the suite's error bounds need
// (tests/polybench/covariance_checks.hpp): Σ_i|data[i][j]|, Σ_i|d[i][j]| and Σ_i|d[i][j1]·d[i][j2]|,
// d the centred data.
//
// Cost: m·n (mean, centring) + m(m+1)/2 · n multiply-adds for symmat (the symmetric half only), plus
// the same count in double (vectorised) for the magnitudes; OpenMP over pairs of 32-column blocks,
// swept in chunks of 256 rows (cache blocking). symmat's sums take one of two routes (dot_route):
//   x87 long double: each sum in PolyBench's order, one long double accumulator, four sums at a time
//     (four x87 add chains in flight). Measured on the 2-core Xeon build machine, two threads: 1024²
//     (5.4e8 pairs) 0.73 s, 2048² (4.3e9) 5.2 s when it was written; 0.79 s and 6.15 s on 2026-11-27.
//   double-double (AVX2 and FMA, where the CPU has them: the default there): each long double centred
//     value split exactly into two doubles, the products' high parts summed error-free (Ogita, Rump and
//     Oishi's Dot2: TwoProduct by FMA, TwoSum) in 4 lanes, the rest in double; at most as far from the
//     exact sum of the centred values as the long double route may be (the proof is beside it in the
//     .cpp), so the suite's bounds hold unchanged; Σ|d1·d2| taken in the same pass, from the high parts.
//     Measured on the same machine and threads, PolyBench's init: 1024² 0.23 s against the x87 route's
//     0.79 s, 2048² 1.94 s against 6.15 s (3.2-3.4x).
// A GPU test process has cores over the processes at once OpenMP threads (scripts/run_gpu_suite.sh;
// every core alone on the machine).
#pragma once

#include <span>
#include <vector>

namespace kc::reference::polybench {

// PolyBench's init: data[i][j] = i·j / M, M = m the column count (KERNELS.md §5). All zeros when n == 1
// or m == 1 (i·j = 0 throughout).
void covariance_polybench_init(std::span<double> data, int n, int m);

struct covariance_result {
  std::vector<double> mean;             // m
  std::vector<double> symmat;           // m·m, row-major, both triangles
  std::vector<double> abs_data_sum;     // Σ_i |data[i][j]|, m
  std::vector<double> abs_centred_sum;  // Σ_i |d[i][j]|, m
  std::vector<double> abs_product_sum;  // Σ_i |d[i][j1]·d[i][j2]|, m·m, both triangles
};
// How symmat's sums are taken (above). automatic: double-double where the CPU has AVX2 and FMA and every
// nonzero |x| lies in [2^-400, 2^400] (the route's exact range), else x87 long double. Asking for
// double_double on a CPU without them, or for data outside that range, throws.
enum class dot_route { automatic, x87_long_double, double_double };
covariance_result covariance(std::span<const double> data, int n, int m, double float_n,
                             dot_route route = dot_route::automatic);

// Whether this CPU can take the double-double route (AVX2 and FMA).
bool double_double_available();

// The route automatic takes for n rows here: double-double where available and n < 2^30 (its proof's
// reach), else x87 long double. Results differ between routes in the last bits (both within the bound).
dot_route automatic_route(int n);

// The long double unit roundoff of this build: 2^-digits (x86-64's 80-bit extended: 2^-64). The
// reference's own error before its final rounding is the suite's bound with this in place of 2^-53.
double long_double_unit_roundoff();

}  // namespace kc::reference::polybench
