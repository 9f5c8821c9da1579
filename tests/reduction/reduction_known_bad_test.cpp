// The suite must reject the seeds' known-bad kernels (registry.cpp, kernels/reduction/known_bad/).
// Each runs through the *same* checks as the correct variants, over a spread of sizes, blocks and
// inputs, several times over (seed 001's Str2 at block 128 was wrong in only 10/20 runs on the
// H200: one run of one case is not enough to catch a race). The test passes when at least one case
// fails; if none does, the suite has a hole — close it, never drop the variant.
//
// K5 with a bare volatile last warp gives right answers on Hopper; its test here only runs it so
// that compute-sanitizer racecheck can catch it (CTest: sanitizer.racecheck.reduction.catches.*).
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "tests/reduction/reduction_checks.hpp"

#include <iostream>

namespace kc::reduction::testing {
namespace {

std::vector<const variant*> known_bad_caught_by(caught_by detection) {
  std::vector<const variant*> found;
  for (const variant& v : known_bad_variants())
    if (v.detection == detection) found.push_back(&v);
  return found;
}

std::string variant_name(const ::testing::TestParamInfo<const variant*>& info) { return std::string(info.param->name); }

// Known-bad variants that wrong values must expose.
class KnownBadReduction : public ::testing::TestWithParam<const variant*> {};
// Known-bad variants whose race is latent here: racecheck must expose them.
class RacyKnownBadReduction : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadReduction, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  RecordProperty("bug", std::string(v.known_bug));
  constexpr int repetitions = 3;
  const std::size_t sizes[] = {31, 33, 1000, 1025, 4097, 65537, (std::size_t{1} << 20) + 3};
  std::size_t cases = 0, caught = 0;
  std::string first_failure;
  bool context_lost = false;
  for (int rep = 0; rep < repetitions && !context_lost; ++rep)
    for (const std::size_t n : sizes)
      for (const int block : v.swept_blocks())
        for (const input_kind kind : {input_kind::integer, input_kind::real})
          for (const bool one_pass : {true, false}) {
            if (context_lost) break;
            const reduction_case c{&v, n, block, kind};
            const std::uint64_t seed = case_seed(base_seed(), c.name() + std::to_string(rep) + (one_pass ? "P" : "F"));
            const ::testing::AssertionResult result = one_pass ? check_one_pass(c, seed) : check_full_reduction(c, seed);
            ++cases;
            if (!result) {
              ++caught;
              if (first_failure.empty()) first_failure = result.message();
              // A fault that kills the context is a catch too; nothing after it can run.
              context_lost = is_sticky_cuda_error(cudaPeekAtLastError()) || is_sticky_cuda_error(cudaDeviceSynchronize());
            }
          }
  RecordProperty("cases_failed", std::to_string(caught) + " of " + std::to_string(cases));
  std::cout << "[ known-bad ] " << v.name << ": rejected by " << caught << " of " << cases << " cases"
            << (context_lost ? " (stopped: the kernel killed the CUDA context)" : "") << "\n  bug: " << v.known_bug
            << (first_failure.empty() ? "" : "\n  first failure: " + first_failure) << '\n';
  EXPECT_GT(caught, 0u) << v.name << " (" << v.known_bug << ") passed all " << cases
                        << " cases: the suite has a hole that lets this bug through";
}

// Runs a racecheck-detected variant on small cases so compute-sanitizer can watch it. What is
// asserted here is only that the kernel ran; racecheck's verdict is the CTest test's.
TEST_P(RacyKnownBadReduction, RunsForRacecheck) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  for (const int block : {64, 256}) {
    const reduction_case c{&v, 4097, block, input_kind::integer};
    const ::testing::AssertionResult result = check_one_pass(c, case_seed(base_seed(), c.name()));
    std::cout << "[ known-bad ] " << c.name() << " value check: " << (result ? "passed (race latent)" : "failed") << '\n';
    ASSERT_EQ(cudaPeekAtLastError(), cudaSuccess) << "the kernel did not run cleanly";
  }
}

INSTANTIATE_TEST_SUITE_P(Reduction, KnownBadReduction, ::testing::ValuesIn(known_bad_caught_by(caught_by::value_checks)),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(Reduction, RacyKnownBadReduction, ::testing::ValuesIn(known_bad_caught_by(caught_by::racecheck)),
                         variant_name);

}  // namespace
}  // namespace kc::reduction::testing
