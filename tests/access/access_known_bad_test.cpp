// The suite must reject the access family's known-bad rows (registry.cpp, kernels/access/known_bad/).
// Each row faces the *same* sweep a correct variant of its kind faces (every_case_of) through the
// same check; a row is caught only by a failed check (refusals — the as-written rows refuse the sizes
// where the seed's host arithmetic divides by zero — are counted apart). The sweep stops at the first
// catch unless KCONFORM_KNOWN_BAD_FULL=1. If a row escapes, the suite has a hole: close it, never
// drop the row. Each row's registry entry says which oracle is expected to catch it (how_caught).
#include "fixtures/case_progress.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/access/access_checks.hpp"

namespace kc::access::testing {
namespace {

class KnownBadAccess : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadAccess, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  known_bad_tally tally;
  bool context_lost = false;
  for (const access_case& c : every_case_of(v)) {  // ordered by size and input: inputs are reused
    if (context_lost || !tally.wants_more()) break;
    tally.record(c.name(), check_access(c, *input_for(c)));
    // A fault that kills the context is a catch too; nothing after it can run.
    context_lost = is_sticky_cuda_error(cudaPeekAtLastError());
  }
  ::testing::Test::RecordProperty("expected_catch", std::string(v.how_caught));
  tally.expect_caught(std::string(v.name), std::string(v.known_bug), context_lost);
  if (context_lost) progress::end_process_after_this_case();
}

INSTANTIATE_TEST_SUITE_P(Access, KnownBadAccess,
                         ::testing::ValuesIn(rows_caught_by(known_bad_variants(), caught_by::value_checks)), row_name<variant>);

}  // namespace
}  // namespace kc::access::testing
