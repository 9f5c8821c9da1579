// The suite must reject seed 002's known-bad matmul kernels (kernels/matmul/known_bad/), each run
// through the same check as the correct variants over square sizes around the report's, with its
// own launch configurations (the report's, or a TILE_WIDTH that does not fit n). The test passes
// when at least one case fails; a kernel that kills the CUDA context is caught too. The tiled
// kernel without its second barrier gave right values in all 20 cases on the H100 (a latent race,
// like seed 000's volatile K5): racecheck catches it (sanitizer.racecheck.matmul.catches.*).
#include "fixtures/cublas_handle.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "tests/matmul/matmul_checks.hpp"

#include <iostream>

namespace kc::matmul::testing {
namespace {

class KnownBadMatmul : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadMatmul, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  RecordProperty("bug", std::string(v.known_bug));
  const cublas_handle handle;
  const launch_context context{nullptr, handle.get()};
  std::size_t cases = 0, caught = 0;
  std::string first_failure;
  for (const int n : {3, 4, 31, 32, 33, 64, 100, 128, 255, 256}) {
    const shape s{n, n, n};
    for (const input_kind kind : {input_kind::integer, input_kind::structured}) {
      const auto input = prepare(s, kind, case_seed(base_seed(), std::string(v.name) + std::to_string(n) + name_of(kind)));
      for (const matmul_config& config : v.configs(s)) {
        const ::testing::AssertionResult result = check_matmul(v, config, *input, context);
        ++cases;
        if (!result) {
          ++caught;
          if (first_failure.empty()) first_failure = result.message();
        }
        if (context_lost()) break;
      }
      if (context_lost()) break;
    }
    if (context_lost()) break;
  }
  std::cout << "[ known-bad ] " << v.name << ": rejected by " << caught << " of " << cases << " cases"
            << (context_lost() ? " (stopped: the kernel killed the CUDA context)" : "") << "\n  bug: " << v.known_bug
            << (first_failure.empty() ? "" : "\n  first failure: " + first_failure) << '\n';
  RecordProperty("cases_failed", std::to_string(caught) + " of " + std::to_string(cases));
  EXPECT_GT(caught, 0u) << v.name << " (" << v.known_bug << ") passed all " << cases
                        << " cases: the suite has a hole that lets this bug through";
}

// Runs the tiled kernel without its second barrier on small cases for compute-sanitizer racecheck.
TEST(KnownBadMatmulRace, TiledNoSecondSyncRunsForRacecheck) {
  KC_REQUIRE_GPU();
  const variant& v = *find_variant("TiledNoSecondSync");
  const auto input = prepare({64, 64, 64}, input_kind::integer, 1);
  const ::testing::AssertionResult result = check_matmul(v, {16, 16}, *input, {});
  std::cout << "[ known-bad ] TiledNoSecondSync 64x64x64 value check: " << (result ? "passed (race latent)" : "failed") << '\n';
  ASSERT_FALSE(context_lost());
}

std::string variant_name(const ::testing::TestParamInfo<const variant*>& info) { return std::string(info.param->name); }
// Variants whose bug shows in values; racecheck-detected ones are the sanitizer tests' to catch.
std::vector<const variant*> known_bad_caught_by_values() {
  std::vector<const variant*> list;
  for (const variant& v : known_bad_variants())
    if (v.detection == caught_by::value_checks) list.push_back(&v);
  return list;
}

INSTANTIATE_TEST_SUITE_P(Matmul, KnownBadMatmul, ::testing::ValuesIn(known_bad_caught_by_values()), variant_name);

}  // namespace
}  // namespace kc::matmul::testing
