// The access conformance suite (seed 003), written once against the registry: one GoogleTest case
// per correct variant × size × launch configuration × input kind, named like
// Access/Conformance.MatchesReference/NonCoalescedN1000B256R100SeedData. Replayable variants are
// compared bitwise with the CPU reference; the cuRAND ones through the index, group and spread
// oracles (access_checks.hpp), AC3 also on an adversarial seed (AccessOverflowSeed). tools/runner runs each variant's cases in one process.
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"
#include "tests/access/access_checks.hpp"

namespace kc::access::testing {
namespace {

class Conformance : public ::testing::TestWithParam<access_case> {};

TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  KC_SKIP_IF_TOO_LARGE(expect_case_passed(check_access(GetParam(), *input_for(GetParam()))));
}

INSTANTIATE_TEST_SUITE_P(Access, Conformance, ::testing::ValuesIn(sweep(correct_variants())), case_param_name<access_case>);
INSTANTIATE_TEST_SUITE_P(AccessRepeats, Conformance, ::testing::ValuesIn(repeat_cases(correct_variants())),
                         case_param_name<access_case>);
INSTANTIATE_TEST_SUITE_P(AccessOverflowSeed, Conformance, ::testing::ValuesIn(overflow_seed_cases(correct_variants())),
                         case_param_name<access_case>);
INSTANTIATE_TEST_SUITE_P(AccessScenarios, Conformance, ::testing::ValuesIn(scenario_sweep(correct_variants())),
                         case_param_name<access_case>);

}  // namespace
}  // namespace kc::access::testing
