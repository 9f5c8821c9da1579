// Not a CTest test by itself: the program compute-sanitizer runs for the known-bad matmul rows whose
// bug gives right values (registry rows caught_by racecheck, memcheck or initcheck), one case per
// row: SanitizerCatches/RunsUnderRacecheck.Row/TiledNoSecondSync. ctest_config/run_sanitizer.sh
// expect-hazard runs each case alone and passes only if the tool reports a hazard in each.
// The cases assert only that the kernel ran; the verdict on the bug is the sanitizer's.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/matmul/matmul_checks.hpp"

#include <iostream>

namespace kc::matmul::testing {
namespace {

void run_for_sanitizer(const variant& v) {
  KC_REQUIRE_GPU();
  const cublas_handle handle;
  std::size_t ran = 0;
  for (const shape s : {shape{64, 64, 64}, shape{33, 65, 17}}) {
    const auto input = prepare(s, input_kind::integer, case_seed(base_seed(), std::string(v.name) + s.describe()));
    for (const matmul_config& config : v.configs(s)) {
      const check_result result = check_matmul(v, config, *input, {nullptr, handle.get()});
      if (result.outcome == verdict::refused) continue;
      ++ran;
      std::cout << "[ known-bad ] " << inner_case_name(v, s, config, input->kind) << " value check: "
                << (result.passed() ? "passed (the bug is invisible to values)" : "failed: " + result.message) << '\n';
      ASSERT_FALSE(context_lost()) << "the kernel did not run cleanly";
    }
  }
  EXPECT_GT(ran, 0u) << "every configuration was refused: the sanitizer would watch nothing";
}

KC_SANITIZER_CATCH_SUITES(variant, caught_by, known_bad_variants(), run_for_sanitizer);

}  // namespace
}  // namespace kc::matmul::testing
