// What the covariance suite sweeps: variant × size × FLOAT_N setting × input × launch configuration,
// and the inputs.
#pragma once

#include "kernels/polybench/covariance/covariance.hpp"

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace kc::polybench::covariance::testing {

enum class input_kind {
  polybench_init,  // PolyBench's data[i][j] = i·j / m (offered where it is not all zeros: n, m >= 2)
  uniform,         // seeded uniform reals in [-1, 1): non-symmetric, non-structured, mean ~ 0
  uniform_offset,  // seeded uniform reals in [0, 2): mean ~ 1, so centring moves every value at FLOAT_N = n
};
const char* name_of(input_kind kind);  // "PolyBenchInit", "Uniform", "UniformOffset"

// Every case runs with both (KERNELS.md §5): the seed's FLOAT_N makes the mean ~n / 3.2e6 of the true
// one, so a broken centring moves symmat by < 0.1% (PolyBench's own 1.05% check cannot see it, the
// error bound can); FLOAT_N = n makes the mean the true one, so centring moves every value — and a
// mean that ignores FLOAT_N is right there, so only the seed's setting shows that.
enum class float_n_setting {
  seed,  // 3214212.01
  rows,  // n
};
const char* name_of(float_n_setting setting);  // "FloatNSeed", "FloatNRows"
double float_n_value(float_n_setting setting, const dims& d);

// One GoogleTest case (fixtures/suite_case.hpp).
struct covariance_case {
  const variant* v = nullptr;
  dims d;
  covariance_config config;
  float_n_setting float_n = float_n_setting::seed;
  input_kind input = input_kind::uniform;

  double float_n_value() const { return testing::float_n_value(float_n, d); }
  // "CovarianceMultiKernelN33M65T16B256C32x8FloatNSeedUniform"
  std::string name() const;
  // The variant; from 2^28 reference multiply-adds (the seed's 1024² and 2048²: seconds of CPU
  // reference each) "Large", every variant's heavy cases in one process, so each reference is computed
  // once for all of them (the process's input cache; two units computed it twice, ~30 s each on an
  // H100 run, issue 21).
  std::string unit() const;
  // 1 + (reference multiply-adds + data elements) / 2^24: the quick preset (cost <= 2) keeps every
  // size up to 4096 x 17 and leaves out 17 x 4096 (symmat of 128 MiB), 1024² and 2048².
  double cost() const;
};
void PrintTo(const covariance_case& c, std::ostream* os);

// The CPU reference's multiply-adds at a size: m(m+1)/2 · n (the symmetric half).
double reference_multiply_adds(const dims& d);
inline constexpr double large_unit_multiply_adds = 0x1p28;

// n rows × m columns: tiny (1, 2, 3), one row and one column (1 × 1000, 1000 × 1), odd and prime and
// both ways round (33 × 65, 65 × 33, 97 × 101), tall and wide (4096 × 17, 17 × 4096: symmat 4096²), and
// the seed's 1024² and 2048² (the reference: ~1.5 s and ~10 s of one core, covariance_reference.hpp).
std::vector<dims> swept_sizes();
// PolyBench's init where it is not all zeros (n >= 2 and m >= 2), then the two random inputs.
std::vector<input_kind> inputs_at(const dims& d);

// Every case of one row, accepted by its launcher or not (a known-bad row faces the sweep a correct
// variant faces), ordered size, FLOAT_N (seed first), input, configuration: consecutive cases share a
// prepared input.
std::vector<covariance_case> every_case_of(const variant& v);
// The same for several rows, each row's cases together.
std::vector<covariance_case> sweep(std::span<const variant> variants);

// The input at a size, from the run's seed (the same data for both FLOAT_N settings).
std::vector<double> make_data(input_kind kind, const dims& d, std::uint64_t seed);
std::uint64_t data_seed(input_kind kind, const dims& d);

}  // namespace kc::polybench::covariance::testing
