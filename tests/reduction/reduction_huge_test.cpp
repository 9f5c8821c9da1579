// Every reduction technique at n = 2^31 + 17 (8 GiB of floats): index arithmetic past 2^31, so a
// 32-bit signed index overflows and the grids reach millions of blocks. One CTest test runs this
// whole program alone on the GPU (RUN_SERIAL: it needs ~17 GiB of device memory and all CPU cores
// for the reference), and the input is drawn once for all variants: dense ±1 integers, exact at
// this size by the random-sign bound in reduction_cases.hpp (every partial sum below ~5.4e5).
// A device too small for it skips with the bytes needed; a launcher that cannot reach this size
// must refuse it with a reason, which the suite reports as a failure of that variant.
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "fixtures/replay.hpp"
#include "tests/reduction/reduction_checks.hpp"

namespace kc::reduction::testing {
namespace {

constexpr std::size_t huge_n = (std::size_t{1} << 31) + 17;

std::shared_ptr<const prepared_input> huge_input() {
  static std::shared_ptr<const prepared_input> input =
      prepare_input(input_kind::integer, huge_n, case_seed(base_seed(), "ReductionHuge"));
  return input;
}

class AcrossIndex2To31 : public ::testing::TestWithParam<const variant*> {};

TEST_P(AcrossIndex2To31, MatchesReference) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  case_tally tally;
  KC_SKIP_IF_TOO_LARGE({
    const reduction_case c{&v, huge_n, {v.has_pass() ? 256 : 0, 0}, input_kind::integer};
    if (inner_case_selected(c.name())) {
      const auto input = huge_input();
      if (v.has_pass()) tally.record(check_one_pass(c, *input));
      tally.record(check_full_reduction(c, *input));
    }
  });
  if (IsSkipped() || HasFatalFailure()) return;
  tally.expect_some_ran(std::string(v.name) + " at n = 2^31 + 17");
}

INSTANTIATE_TEST_SUITE_P(ReductionHuge, AcrossIndex2To31, ::testing::ValuesIn(pointers_to(correct_variants())),
                         row_name<variant>);

}  // namespace
}  // namespace kc::reduction::testing
