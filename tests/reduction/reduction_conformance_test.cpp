// The reduction conformance suite, written once against the registry: one GoogleTest case per
// correct variant × size × launch configuration × input kind, named like
// Reduction/OnePass.MatchesReference/SequentialAddressingN1025B256Integer. A failure names the case
// (config, input, seed) and prints the command that reruns exactly it; tools/runner runs each
// variant's cases in one process (the unit), isolating any case that crashes or hangs.
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"
#include "tests/reduction/reduction_checks.hpp"

namespace kc::reduction::testing {
namespace {

class OnePass : public ::testing::TestWithParam<reduction_case> {};
class FullReduction : public ::testing::TestWithParam<reduction_case> {};

// One launch: each block's partial sum must match the reference for that block's elements.
TEST_P(OnePass, MatchesReference) {
  KC_REQUIRE_GPU();
  KC_SKIP_IF_TOO_LARGE(expect_case_passed(check_one_pass(GetParam(), *input_for(GetParam()))));
}

// n -> 1: the multi-pass driver (or the library) must produce the reference total.
TEST_P(FullReduction, MatchesReference) {
  KC_REQUIRE_GPU();
  KC_SKIP_IF_TOO_LARGE(expect_case_passed(check_full_reduction(GetParam(), *input_for(GetParam()))));
}

INSTANTIATE_TEST_SUITE_P(Reduction, OnePass, ::testing::ValuesIn(sweep_pass_variants(correct_variants())),
                         case_param_name<reduction_case>);
INSTANTIATE_TEST_SUITE_P(ReductionReportGrids, OnePass, ::testing::ValuesIn(report_grid_cases(correct_variants())),
                         case_param_name<reduction_case>);
INSTANTIATE_TEST_SUITE_P(Reduction, FullReduction, ::testing::ValuesIn(sweep(correct_variants())),
                         case_param_name<reduction_case>);
INSTANTIATE_TEST_SUITE_P(ReductionEdgeInputs, FullReduction, ::testing::ValuesIn(edge_input_cases(correct_variants())),
                         case_param_name<reduction_case>);

}  // namespace
}  // namespace kc::reduction::testing
