// Not a CTest test by itself: the program compute-sanitizer runs for the known-bad rows whose bug
// gives right values (registry rows caught_by racecheck, memcheck or initcheck), one GoogleTest case
// per row, named after the tool that must catch it:
//   SanitizerCatches/RunsUnderRacecheck.Row/VolatileWarpUnroll
// ctest_config/run_sanitizer.sh expect-hazard runs every case of a tool one by one and passes
// only if the tool reports a hazard in each. The cases here assert that the kernel ran (no fault,
// no refusal); the verdict on the bug is the sanitizer's. Rows come from the registry, so a new row
// is covered without touching CMake.
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/reduction/reduction_checks.hpp"

#include <iostream>

namespace kc::reduction::testing {
namespace {

void run_for_sanitizer(const variant& v) {
  KC_REQUIRE_GPU();
  std::size_t ran = 0;
  // 4097 = 16 blocks of 256 plus a 1-element tail: partial warps and blocks, threads past n.
  for (const int block : {64, 256}) {
    const reduction_case c{&v, 4097, {block, 0}, input_kind::integer};
    const auto input = prepare_input(c.input, c.n, case_seed(base_seed(), c.name()));
    const check_result result = check_one_pass(c, *input);
    ASSERT_NE(result.outcome, verdict::refused) << result.message;
    std::cout << "[ known-bad ] " << c.name() << " value check: "
              << (result.passed() ? "passed (the bug is invisible to values)" : "failed: " + result.message) << '\n';
    ASSERT_FALSE(is_sticky_cuda_error(cudaPeekAtLastError())) << "the kernel did not run cleanly";
    ++ran;
  }
  EXPECT_GT(ran, 0u);
}

KC_SANITIZER_CATCH_SUITES(variant, caught_by, known_bad_variants(), run_for_sanitizer);

}  // namespace
}  // namespace kc::reduction::testing
