// The reduction conformance suite, written once against the registry and instantiated for every
// correct variant × size; each case checks every launch configuration of the variant's own sweep
// with each input kind. Test names read like Reduction/OnePass.MatchesReference/SequentialAddressingN1025;
// a failure names the inner case (config, input, seed) and prints the command that reruns exactly it.
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/replay.hpp"
#include "tests/reduction/reduction_checks.hpp"

namespace kc::reduction::testing {
namespace {

class OnePass : public ::testing::TestWithParam<size_case> {};
class FullReduction : public ::testing::TestWithParam<size_case> {};

std::string case_name(const ::testing::TestParamInfo<size_case>& info) { return info.param.name(); }

template <class Check>
void run_size_case(const size_case& sized, const char* check_name, Check check) {
  case_tally tally;
  KC_SKIP_IF_TOO_LARGE({
    for (const input_kind kind : sized.inputs) {
      std::shared_ptr<const prepared_input> input;  // drawn once, shared by every config
      for (const reduce_config& config : sized.configs) {
        const reduction_case c{sized.v, sized.n, config, kind};
        if (!inner_case_selected(c.name())) continue;
        if (!input) input = prepare_input(kind, sized.n, case_seed(base_seed(), check_name + sized.name() + name_of(kind)));
        tally.record(check(c, *input));
        ASSERT_FALSE(is_sticky_cuda_error(cudaPeekAtLastError())) << "the CUDA context is gone; stopping this case";
      }
    }
  });
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
  tally.expect_some_ran(sized.name());
}

// One launch: each block's partial sum must match the reference for that block's elements.
TEST_P(OnePass, MatchesReference) {
  KC_REQUIRE_GPU();
  run_size_case(GetParam(), "OnePass", check_one_pass);
}

// n -> 1: the multi-pass driver (or the library) must produce the reference total.
TEST_P(FullReduction, MatchesReference) {
  KC_REQUIRE_GPU();
  run_size_case(GetParam(), "FullReduction", check_full_reduction);
}

INSTANTIATE_TEST_SUITE_P(Reduction, OnePass, ::testing::ValuesIn(sweep_pass_variants(correct_variants())), case_name);
INSTANTIATE_TEST_SUITE_P(ReductionReportGrids, OnePass, ::testing::ValuesIn(report_grid_cases(correct_variants())),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Reduction, FullReduction, ::testing::ValuesIn(sweep(correct_variants())), case_name);
INSTANTIATE_TEST_SUITE_P(ReductionEdgeInputs, FullReduction, ::testing::ValuesIn(edge_input_cases(correct_variants())),
                         case_name);

}  // namespace
}  // namespace kc::reduction::testing
