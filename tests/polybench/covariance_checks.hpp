// The check every covariance variant goes through, and the error bound behind it (derived beside
// covariance_tolerances in covariance_checks.cpp). check_covariance returns a check_result (passed,
// failed or refused) so the known-bad test counts failures with the very check the correct variants
// must pass; beside it, PolyBench/GPU's own percent-difference figure over symmat, reported in every
// failure message and recorded on every case — never the verdict.
//
// Around the launch (as every family): the input drawn once per (size, input, FLOAT_N) and kept
// pristine on the device; data (scratch: a variant may centre it in place), mean and symmat
// guard-zoned and poisoned (NaN where nothing was written); the input copied into data on a
// non-blocking stream behind a delay kernel and the launch queued on that stream; then the guards of
// all three, and every element of mean and symmat (both triangles) within its bound.
#pragma once

#include "fixtures/check_result.hpp"
#include "fixtures/device_buffer.hpp"
#include "reference/polybench/covariance_reference.hpp"
#include "reference/polybench/percent_diff.hpp"
#include "tests/polybench/covariance_cases.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kc::polybench::covariance::testing {

// ---- the error bound ----
// The unit roundoff the bound is evaluated with: double's 2^-53 plus four times the reference's
// long double one (its own error, and its magnitudes standing in for exact ones; see the .cpp).
double bound_unit_roundoff();
struct tolerances {
  std::vector<double> mean;    // m
  std::vector<double> symmat;  // m·m
};
tolerances covariance_tolerances(const reference::polybench::covariance_result& ref, int n, int m, double float_n);

// ---- inputs ----
struct prepared_input {
  dims d;
  input_kind kind = input_kind::uniform;
  float_n_setting setting = float_n_setting::seed;
  double float_n = 0.0;
  std::uint64_t seed = 0;
  std::vector<double> data;
  std::vector<double> expected_mean, expected_symmat;
  tolerances tolerance;
  device_buffer<double> pristine_data;
};
// The host half (data, reference, tolerances), without a GPU: for the CPU tests.
std::shared_ptr<prepared_input> make_host_input(const dims& d, input_kind kind, float_n_setting setting, std::uint64_t seed);
std::shared_ptr<const prepared_input> prepare(const dims& d, input_kind kind, float_n_setting setting, std::uint64_t seed);
// The case's input, drawn once per process and shared by every variant and configuration
// (fixtures/input_cache.hpp).
std::shared_ptr<const prepared_input> input_for(const covariance_case& c);

// ---- the verdict on values ----
struct value_verdict {
  std::string problem;  // "" when mean and every symmat element are within their bounds
  reference::polybench::percent_diff_summary polybench;  // PolyBench's figure over symmat
  bool passed() const { return problem.empty(); }
};
// mean and symmat as a variant left them, against the reference within the bound.
value_verdict judge_outputs(const prepared_input& input, std::span<const double> mean, std::span<const double> symmat);

struct check_outcome {
  check_result result;
  std::optional<reference::polybench::percent_diff_summary> polybench;  // once symmat was read back
};
// write_dump: a failed comparison writes its data to failures/ (fixtures/failure_dump.hpp); false where
// a failure is the expected outcome and the data is large (the FLOAT_N demonstration at 1024²).
check_outcome check_covariance(const covariance_case& c, const prepared_input& input, cublasHandle_t cublas,
                               bool write_dump = true);

}  // namespace kc::polybench::covariance::testing
