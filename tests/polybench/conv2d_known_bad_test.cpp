// The suite must reject the conv2d known-bad rows (registry.cpp, kernels/polybench/conv2d/known_bad/).
// Each value-detected row faces the *same* sweep a correct variant faces (every_case_of) through the
// same check; a row is caught only by a failed check (refusals are counted apart). The sweep stops at
// the first catch unless KCONFORM_KNOWN_BAD_FULL=1. If a row escapes, the suite has a hole: close it,
// never drop the row. Rows only a sanitizer sees are in conv2d_sanitizer_targets.cpp.
#include "fixtures/case_progress.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/polybench/conv2d_checks.hpp"

namespace kc::polybench::conv2d::testing {
namespace {

class KnownBadConv2d : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadConv2d, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  known_bad_tally tally;
  bool context_lost = false;
  KC_SKIP_IF_TOO_LARGE({
    for (const conv2d_case& c : every_case_of(v)) {  // ordered by size and input: inputs are reused
      if (context_lost || !tally.wants_more()) break;
      tally.record(c.name(), check_conv2d(c, *input_for(c)));
      // A fault that kills the context is a catch too; nothing after it can run.
      context_lost = is_sticky_cuda_error(cudaPeekAtLastError());
    }
  });
  ::testing::Test::RecordProperty("expected_catch", std::string(v.how_caught));
  tally.expect_caught(std::string(v.name), std::string(v.known_bug), context_lost);
  if (context_lost) progress::end_process_after_this_case();
}

INSTANTIATE_TEST_SUITE_P(PolybenchConv2d, KnownBadConv2d,
                         ::testing::ValuesIn(rows_caught_by(known_bad_variants(), caught_by::value_checks)), row_name<variant>);

}  // namespace
}  // namespace kc::polybench::conv2d::testing
