// The matmul conformance suite: every correct variant × shape, each case running every launch
// configuration the variant sweeps at that shape (block sides 4–32, TILE_WIDTH 1–64 where valid)
// with every input kind of inputs_for(shape). Plus every (n, TILE_WIDTH, block, grid) the report
// ran, as named cases. A refused configuration is a failure (the sweep asked for it), and a case
// that ran no configuration at all fails rather than passing empty.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/replay.hpp"
#include "tests/matmul/matmul_checks.hpp"
#include "tests/matmul/report_cases.hpp"

namespace kc::matmul::testing {
namespace {

// The cuBLAS handle lives as long as the fixture: once per test, not once per multiply.
template <class Param>
class MatmulFixture : public ::testing::TestWithParam<Param> {
 protected:
  launch_context context() {
    if (!handle_) handle_ = std::make_unique<cublas_handle>();
    return {nullptr, handle_->get()};
  }

 private:
  std::unique_ptr<cublas_handle> handle_;
};

class Conformance : public MatmulFixture<shape_case> {};
class ReportCase : public MatmulFixture<report_case> {};

TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  const shape_case& c = GetParam();
  case_tally tally;
  KC_SKIP_IF_TOO_LARGE({
    const launch_context ctx = context();
    for (const input_kind kind : c.inputs) {
      std::shared_ptr<const prepared_input> input;  // drawn once, shared by every config
      for (const matmul_config& config : swept_configs(*c.v, c.s)) {
        if (!runs_input(*c.v, c.s, config, kind) || !inner_case_selected(inner_case_name(*c.v, c.s, config, kind))) continue;
        if (!input) input = prepare(c.s, kind, case_seed(base_seed(), c.name() + name_of(kind)));
        tally.record(check_matmul(*c.v, config, *input, ctx));
        ASSERT_FALSE(context_lost()) << "the CUDA context is gone; stopping this case";
      }
    }
  });
  if (IsSkipped() || HasFatalFailure()) return;
  tally.expect_some_ran(c.name());
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
  case_tally tally;
  KC_SKIP_IF_TOO_LARGE({
    for (const input_kind kind : {input_kind::integer}) {
      if (!inner_case_selected(inner_case_name(v, s, config, kind))) continue;
      const auto input = prepare(s, kind, case_seed(base_seed(), r.name() + name_of(kind)));
      tally.record(check_matmul(v, config, *input, context()));
    }
  });
  if (IsSkipped() || HasFatalFailure()) return;
  tally.expect_some_ran(r.name());
}

std::string shape_case_name(const ::testing::TestParamInfo<shape_case>& info) { return info.param.name(); }
std::string report_case_name(const ::testing::TestParamInfo<report_case>& info) { return info.param.name(); }

INSTANTIATE_TEST_SUITE_P(Matmul, Conformance, ::testing::ValuesIn(sweep(correct_variants())), shape_case_name);
INSTANTIATE_TEST_SUITE_P(Matmul, ReportCase, ::testing::ValuesIn(report_cases()), report_case_name);

}  // namespace
}  // namespace kc::matmul::testing
