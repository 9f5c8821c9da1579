// The conv2d conformance suite (seed 004), written once against the registry: one GoogleTest case
// per correct variant × size × launch configuration × input kind, named like
// PolybenchConv2d/Conformance.MatchesReference/Conv2dDirectNi33Nj65B32x8Polybench. The interior is
// held to the error bound of conv2d_checks.hpp, the border to its prior bytes. tools/runner runs
// each variant's cases in one process (its 4096² cases in a second, ".Large").
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"
#include "tests/polybench/conv2d_checks.hpp"

namespace kc::polybench::conv2d::testing {
namespace {

class Conformance : public ::testing::TestWithParam<conv2d_case> {};

TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  KC_SKIP_IF_TOO_LARGE(expect_case_passed(check_conv2d(GetParam(), *input_for(GetParam()))));
}

INSTANTIATE_TEST_SUITE_P(PolybenchConv2d, Conformance, ::testing::ValuesIn(sweep(correct_variants())),
                         case_param_name<conv2d_case>);

}  // namespace
}  // namespace kc::polybench::conv2d::testing
