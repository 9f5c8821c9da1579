// The check every ATAX variant goes through. It returns a check_result (passed, failed or refused)
// instead of asserting, so the known-bad tests run the very same check and count failures,
// refusals apart.
//
// Around the launch (as every family): inputs drawn once per (shape, input kind) and kept pristine
// on the device; A, x, tmp and y guard-zoned (the guards hold a NaN canary, so an out-of-bounds
// *read* brings a NaN into y) and poisoned (NaN); the scratch tmp stays poisoned, so a read of an
// entry before it is written — the seed's cross-block race — is a NaN too; A and x copied in on a
// non-blocking stream behind a delay kernel, the launch queued on that stream; then the guards of
// all four, A and x unchanged, and every y[j] against the reference within the error bound
// (y_tolerance). tmp is scratch: its values are not checked. Beside the verdict, PolyBench's own
// percent-difference figure (threshold 0.5%) is recorded ("polybench_check") and put in every
// failure message; the verdict is the bound's.
#pragma once

#include "fixtures/check_result.hpp"
#include "fixtures/device_buffer.hpp"
#include "reference/polybench/atax_reference.hpp"
#include "tests/polybench/atax_cases.hpp"

#include <memory>

namespace kc::polybench::atax::testing {

// The longest chain of roundings a y_j goes through: ny in tmp_i = Σ_j A_ij·x_j, then nx in
// y_j = Σ_i A_ij·tmp_i.
std::size_t rounding_chain(const atax_shape& s);
// The allowed |gpu_j − ref_j| for y_j, from the magnitude M_j and the reference value (derivation
// in atax_checks.cpp, beside the comparison).
double y_tolerance(const atax_shape& s, double magnitude, double reference);

struct prepared_input {
  atax_shape s;
  input_kind kind = input_kind::random;
  std::uint64_t seed = 0;
  atax_input host;
  reference::polybench::atax_result expected;
  std::vector<double> tolerance;  // per y_j
  device_buffer<double> pristine_a, pristine_x;
};
// The host half (data, reference, tolerances), without a GPU: for the CPU tests.
std::shared_ptr<prepared_input> make_host_input(const atax_shape& s, input_kind kind, std::uint64_t seed);
// make_host_input plus the pristine device copies.
std::shared_ptr<const prepared_input> prepare(const atax_shape& s, input_kind kind, std::uint64_t seed);
// The input at (shape, kind), drawn once per process and shared by every variant and configuration
// (fixtures/input_cache.hpp); its seed comes from the run's base seed, the shape and the kind.
std::shared_ptr<const prepared_input> input_for(const atax_shape& s, input_kind kind);

check_result check_atax(const atax_case& c, const prepared_input& input, cublasHandle_t cublas);

}  // namespace kc::polybench::atax::testing
