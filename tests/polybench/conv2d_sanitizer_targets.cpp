// Not a CTest test by itself: the program compute-sanitizer runs for the known-bad conv2d rows whose
// bug may give right values (registry rows caught_by racecheck, memcheck or initcheck), one case per
// row: SanitizerCatches/RunsUnderRacecheck.Row/Conv2dSharedTileNoSync. ctest_config/run_sanitizer.sh
// expect-hazard runs each case alone and passes only if the tool reports a hazard in it. The cases
// assert only that the kernel ran; the verdict on the bug is the sanitizer's.
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/polybench/conv2d_checks.hpp"

#include <iostream>

namespace kc::polybench::conv2d::testing {
namespace {

void run_for_sanitizer(const variant& v) {
  KC_REQUIRE_GPU();
  std::size_t ran = 0;
  // 33 x 65: partial blocks in both dimensions under every configuration, so every block's halo
  // loads run through the strided loop; small enough for the tool's slowdown.
  const size_2d size{33, 65};
  const auto input = prepare_input(input_kind::signed_real, size, case_seed(base_seed(), std::string(v.name) + "Ni33Nj65"));
  for (const conv2d_config& config : swept_configs()) {
    const conv2d_case c{&v, size, config, input_kind::signed_real};
    const check_result result = check_conv2d(c, *input);
    if (result.outcome == verdict::refused) continue;
    ++ran;
    std::cout << "[ known-bad ] " << c.name() << " value check: "
              << (result.passed() ? "passed (the bug is invisible to values here)" : "failed: " + result.message) << '\n';
    ASSERT_FALSE(is_sticky_cuda_error(cudaPeekAtLastError())) << "the kernel did not run cleanly";
  }
  EXPECT_GT(ran, 0u) << "every configuration was refused: the sanitizer would watch nothing";
}

KC_SANITIZER_CATCH_SUITES(variant, caught_by, known_bad_variants(), run_for_sanitizer);

}  // namespace
}  // namespace kc::polybench::conv2d::testing
