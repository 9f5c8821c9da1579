// The ATAX conformance suite (seed 004), written once against the registry: one GoogleTest case per
// correct variant × shape × launch configuration × input kind, named like
// PolybenchAtax/Conformance.MatchesReference/AtaxTwoKernelsNx33Ny65B96Random. Every y[j] is held to
// the error bound of atax_checks.cpp; PolyBench's percent-difference figure is recorded beside it.
// A refused configuration is a failure (the sweep asked for it). tools/runner runs a variant's
// cases in one process (its unit; the seed's 4096 x 4096 in a second, .Large).
#include "fixtures/cublas_handle.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"
#include "tests/polybench/atax_checks.hpp"

namespace kc::polybench::atax::testing {
namespace {

class Conformance : public ::testing::TestWithParam<atax_case> {};

TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  const atax_case& c = GetParam();
  KC_SKIP_IF_TOO_LARGE(expect_case_passed(check_atax(c, *input_for(c.s, c.input), process_cublas_handle())));
}

INSTANTIATE_TEST_SUITE_P(PolybenchAtax, Conformance, ::testing::ValuesIn(sweep(correct_variants())),
                         case_param_name<atax_case>);

}  // namespace
}  // namespace kc::polybench::atax::testing
