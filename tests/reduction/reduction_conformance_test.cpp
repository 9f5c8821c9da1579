// The reduction conformance suite, written once against the registry and instantiated for every
// correct variant × size; each case checks every block the variant supports with each input kind.
// Test names read like Reduction/OnePass.MatchesReference/SequentialAddressingN1025; a failure
// names the block, input and seed that failed, and how to replay it.
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "tests/reduction/reduction_checks.hpp"

namespace kc::reduction::testing {
namespace {

class OnePass : public ::testing::TestWithParam<size_case> {};
class FullReduction : public ::testing::TestWithParam<size_case> {};

std::string case_name(const ::testing::TestParamInfo<size_case>& info) { return info.param.name(); }

// One launch: each block's partial sum must match the reference for that block's elements.
TEST_P(OnePass, MatchesReference) {
  KC_REQUIRE_GPU();
  for (const reduction_case& c : GetParam().cases())
    KC_SKIP_IF_TOO_LARGE(EXPECT_TRUE(check_one_pass(c, case_seed(base_seed(), "OnePass" + c.name()))));
}

// n -> 1: the multi-pass driver (or the library) must produce the reference total.
TEST_P(FullReduction, MatchesReference) {
  KC_REQUIRE_GPU();
  for (const reduction_case& c : GetParam().cases())
    KC_SKIP_IF_TOO_LARGE(EXPECT_TRUE(check_full_reduction(c, case_seed(base_seed(), "FullReduction" + c.name()))));
}

INSTANTIATE_TEST_SUITE_P(Reduction, OnePass, ::testing::ValuesIn(sweep_pass_variants(correct_variants())), case_name);
INSTANTIATE_TEST_SUITE_P(Reduction, FullReduction, ::testing::ValuesIn(sweep(correct_variants())), case_name);
INSTANTIATE_TEST_SUITE_P(ReductionEdgeInputs, FullReduction, ::testing::ValuesIn(edge_input_cases(correct_variants())),
                         case_name);

}  // namespace
}  // namespace kc::reduction::testing
