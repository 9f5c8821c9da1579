// The matmul conformance suite: one GoogleTest case per correct variant × shape × launch
// configuration (block sides 4–32, TILE_WIDTH 1–64 where valid) × input kind of inputs_for(shape),
// named like Matmul/Conformance.MatchesReference/SharedTiledM33N65K17B16TW16Real. Plus every
// (n, TILE_WIDTH, block, grid) the report ran, as named cases. A refused configuration is a failure
// (the sweep asked for it). tools/runner runs a variant's cases in one process (its unit; the
// shapes past 2^30 multiply-adds in a second), isolating any case that crashes or hangs.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"
#include "tests/matmul/matmul_checks.hpp"
#include "tests/matmul/report_cases.hpp"

namespace kc::matmul::testing {
namespace {

class Conformance : public ::testing::TestWithParam<matmul_case> {};
class ReportCase : public ::testing::TestWithParam<report_case> {};

TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  const matmul_case& c = GetParam();
  KC_SKIP_IF_TOO_LARGE(expect_case_passed(check_matmul(*c.v, c.config, *input_for(c.s, c.input), {nullptr, process_cublas_handle()})));
}

// The report's own launches, run with the corrected kernels: the launcher must compute the grid
// the report used, and the product must be right.
TEST_P(ReportCase, MatchesReference) {
  KC_REQUIRE_GPU();
  const report_case& r = GetParam();
  const variant& v = *find_variant(r.variant);
  const shape s{r.n, r.n, r.n};
  const matmul_config config{r.block, r.tile_width};
  EXPECT_EQ(report_grid(v, s, config), r.grid) << "the launcher's grid differs from the report's";
  KC_SKIP_IF_TOO_LARGE(expect_case_passed(check_matmul(v, config, *input_for(s, input_kind::integer), {nullptr, process_cublas_handle()})));
}

INSTANTIATE_TEST_SUITE_P(Matmul, Conformance, ::testing::ValuesIn(sweep(correct_variants())), case_param_name<matmul_case>);
INSTANTIATE_TEST_SUITE_P(Matmul, ReportCase, ::testing::ValuesIn(report_cases()), case_param_name<report_case>);

}  // namespace
}  // namespace kc::matmul::testing
