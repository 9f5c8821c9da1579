// The suite must reject the covariance family's known-bad rows (registry.cpp, known_bad/). Each row
// faces the *same* sweep a correct variant faces (every_case_of: every size, both FLOAT_N settings,
// every input, its configurations) through the same check; a row is caught only by a failed check
// (refusals are counted apart). The sweep stops at the first catch unless KCONFORM_KNOWN_BAD_FULL=1.
// If a row escapes, the suite has a hole: close it, never drop the row.
//
// CovarianceFloatNSettings shows why every case runs with both FLOAT_N settings (KERNELS.md §5), at
// the seed's 1024² with PolyBench's own init: a broken centring (the seed's, alone; PolyBench/GPU's
// quarter grid) passes PolyBench's 1.05% check at FLOAT_N = 3214212.01 and fails the error bound;
// at FLOAT_N = n PolyBench's check fails it too. A mean that ignores FLOAT_N is right at FLOAT_N = n
// and wrong at the seed's. The percent figures are recorded beside each verdict.
#include "fixtures/case_progress.hpp"
#include "fixtures/cublas_handle.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/polybench/covariance_checks.hpp"

#include <iostream>

namespace kc::polybench::covariance::testing {
namespace {

class KnownBadCovariance : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadCovariance, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  known_bad_tally tally;
  bool context_lost = false;
  std::string polybench_at_first_catch;
  KC_SKIP_IF_TOO_LARGE({
    for (const covariance_case& c : every_case_of(v)) {  // ordered by size, FLOAT_N and input: inputs are reused
      if (context_lost || !tally.wants_more()) break;
      if (const launch_status status = validate(v, c.d, c.float_n_value(), c.config, device_limits::of_current_device()); !status) {
        tally.record(c.name(), check_result::refuse(status.message()));  // refused cases need no data
        continue;
      }
      const check_outcome outcome = check_covariance(c, *input_for(c), process_cublas_handle());
      if (tally.caught() == 0 && outcome.result.outcome == verdict::failed)
        polybench_at_first_catch = outcome.polybench ? outcome.polybench->describe() : "not computed (no symmat was read back)";
      tally.record(c.name(), outcome.result);
      // A fault that kills the context is a catch too; nothing after it can run.
      context_lost = is_sticky_cuda_error(cudaPeekAtLastError());
    }
  });
  ::testing::Test::RecordProperty("expected_catch", std::string(v.how_caught));
  ::testing::Test::RecordProperty("polybench_check_at_first_catch", polybench_at_first_catch);
  tally.expect_caught(std::string(v.name), std::string(v.known_bug), context_lost);
  if (context_lost) progress::end_process_after_this_case();
}

INSTANTIATE_TEST_SUITE_P(PolybenchCovariance, KnownBadCovariance,
                         ::testing::ValuesIn(rows_caught_by(known_bad_variants(), caught_by::value_checks)), row_name<variant>);

// ---- each FLOAT_N setting hides a mistake the other shows ----

const dims seed_scale{1024, 1024};

check_outcome run_at_seed_scale(std::string_view row, float_n_setting setting) {
  const variant& v = *find_variant(row);
  const covariance_case c{&v, seed_scale, v.configs(seed_scale).front(), setting, input_kind::polybench_init};
  // No failure dump: most of these fail by design, and each would be ~70 MB of 1024² text.
  const check_outcome outcome = check_covariance(c, *input_for(c), process_cublas_handle(), /*write_dump=*/false);
  const std::string figure = outcome.polybench ? outcome.polybench->describe() : "not computed";
  std::cout << "[ FLOAT_N ] " << c.name() << ": " << (outcome.result.passed() ? "passes" : "fails") << " the error bound; "
            << figure << '\n';
  ::testing::Test::RecordProperty(std::string(row) + name_of(setting), figure);
  return outcome;
}

// A broken centring, at FLOAT_N = 3214212.01: the bound fails it, PolyBench's check passes it; at
// FLOAT_N = n both fail it.
void expect_polybench_blind_only_at_the_seeds_float_n(std::string_view row) {
  const check_outcome seed = run_at_seed_scale(row, float_n_setting::seed);
  ASSERT_TRUE(seed.polybench.has_value()) << seed.result.message;
  EXPECT_EQ(seed.result.outcome, verdict::failed) << "the error bound let a broken centring through at FLOAT_N = 3214212.01";
  EXPECT_TRUE(seed.polybench->polybench_passes())
      << "PolyBench's own check was expected to miss the broken centring at FLOAT_N = 3214212.01 (symmat moves by ~0.05%): "
      << seed.polybench->describe();
  const check_outcome rows = run_at_seed_scale(row, float_n_setting::rows);
  ASSERT_TRUE(rows.polybench.has_value()) << rows.result.message;
  EXPECT_EQ(rows.result.outcome, verdict::failed);
  EXPECT_FALSE(rows.polybench->polybench_passes())
      << "at FLOAT_N = n the centring moves every value: PolyBench's check should see it too: " << rows.polybench->describe();
}

// One test suite, so the two 1024² references these share (FLOAT_N = 3214212.01 and n) are computed
// once, in one process (one unit).
TEST(CovarianceFloatNSettings, SkippedCentringPassesPolybenchButNotTheBoundAtTheSeedsFloatN) {
  KC_REQUIRE_GPU();
  KC_SKIP_IF_TOO_LARGE(expect_polybench_blind_only_at_the_seeds_float_n("CovarianceSkipsCentring"));
}

TEST(CovarianceFloatNSettings, QuarterGridCentringPassesPolybenchButNotTheBoundAtTheSeedsFloatN) {
  KC_REQUIRE_GPU();
  KC_SKIP_IF_TOO_LARGE(expect_polybench_blind_only_at_the_seeds_float_n("CovarianceCentringQuarterGrid"));
}

TEST(CovarianceFloatNSettings, AMeanIgnoringFloatNIsInvisibleAtFloatNEqualToRows) {
  KC_REQUIRE_GPU();
  KC_SKIP_IF_TOO_LARGE({
    const check_outcome rows = run_at_seed_scale("CovarianceMeanDividesByRows", float_n_setting::rows);
    EXPECT_TRUE(rows.result.passed()) << "dividing by n is exactly right when FLOAT_N = n: " << rows.result.message;
    const check_outcome seed = run_at_seed_scale("CovarianceMeanDividesByRows", float_n_setting::seed);
    EXPECT_EQ(seed.result.outcome, verdict::failed) << "the seed's FLOAT_N must expose a mean that ignores it";
  });
}

}  // namespace
}  // namespace kc::polybench::covariance::testing
