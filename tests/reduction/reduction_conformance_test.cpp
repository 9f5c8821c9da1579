// The reduction conformance suite, written once against the registry and instantiated for every
// correct variant × size × block × input (instantiate_sweep.cpp). Test names read like
// Reduction/OnePass.MatchesReference/SequentialAddressingN1025B256Integer.
#include "tests/reduction/reduction_conformance.hpp"

#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "tests/reduction/reduction_checks.hpp"

namespace kc::reduction::testing {

std::vector<reduction_case> shard_of(std::vector<reduction_case> cases, int shard, int shards) {
  if (shard < 0) return cases;
  std::vector<reduction_case> kept;
  for (std::size_t i = static_cast<std::size_t>(shard); i < cases.size(); i += static_cast<std::size_t>(shards))
    kept.push_back(cases[i]);
  return kept;
}

// A shard may draw no library variant, and so no OnePass case; that is not an error.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OnePass);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FullReduction);

// One launch: each block's partial sum must match the reference for that block's elements.
TEST_P(OnePass, MatchesReference) {
  KC_REQUIRE_GPU();
  const reduction_case& c = GetParam();
  KC_SKIP_IF_TOO_LARGE(EXPECT_TRUE(check_one_pass(c, case_seed(base_seed(), "OnePass" + c.name()))));
}

// n -> 1: the multi-pass driver (or the library) must produce the reference total.
TEST_P(FullReduction, MatchesReference) {
  KC_REQUIRE_GPU();
  const reduction_case& c = GetParam();
  KC_SKIP_IF_TOO_LARGE(EXPECT_TRUE(check_full_reduction(c, case_seed(base_seed(), "FullReduction" + c.name()))));
}

}  // namespace kc::reduction::testing
