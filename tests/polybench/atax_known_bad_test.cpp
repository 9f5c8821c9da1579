// The suite must reject the ATAX known-bad rows (registry.cpp, kernels/polybench/atax/known_bad/).
// Each row faces the *same* sweep a correct variant faces (every_case_of) through the same check; a
// row is caught only by a failed check (refusals are counted apart). The sweep stops at the first
// catch unless KCONFORM_KNOWN_BAD_FULL=1. If a row escapes, the suite has a hole: close it, never
// drop the row.
//
//   KnownBadAtax.IsRejectedByTheSuite            the whole sweep (both inputs)
//   KnownBadAtax.IsRejectedOnTheRandomInputAlone the Random cases only: PolyBench's init is symmetric
//                                                when nx = ny, so the suite must not depend on it
//   FusedAsWrittenBugs.*                         each of the seed's bugs at a shape where it is the
//                                                only one that can show (the race: atax_schedule_test)
#include "fixtures/case_progress.hpp"
#include "fixtures/cublas_handle.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/polybench/atax_checks.hpp"

#include <algorithm>

namespace kc::polybench::atax::testing {
namespace {

void expect_caught_over(const variant& v, const std::vector<atax_case>& cases) {
  known_bad_tally tally;
  bool context_lost = false;
  KC_SKIP_IF_TOO_LARGE({
    for (const atax_case& c : cases) {  // ordered by shape and input: inputs are reused
      if (context_lost || !tally.wants_more()) break;
      if (const launch_status status = validate(v, c.s, c.config, device_limits::of_current_device()); !status) {
        tally.record(c.name(), check_result::refuse(status.message()));  // refused cases need no data
        continue;
      }
      tally.record(c.name(), check_atax(c, *input_for(c.s, c.input), process_cublas_handle()));
      // A fault that kills the context is a catch too; nothing after it can run.
      context_lost = is_sticky_cuda_error(cudaPeekAtLastError());
    }
  });
  ::testing::Test::RecordProperty("expected_catch", std::string(v.how_caught));
  tally.expect_caught(std::string(v.name), std::string(v.known_bug), context_lost);
  if (context_lost) progress::end_process_after_this_case();  // the next row needs a live context
}

class KnownBadAtax : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadAtax, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  expect_caught_over(*GetParam(), every_case_of(*GetParam()));
}

TEST_P(KnownBadAtax, IsRejectedOnTheRandomInputAlone) {
  KC_REQUIRE_GPU();
  std::vector<atax_case> cases = every_case_of(*GetParam());
  std::erase_if(cases, [](const atax_case& c) { return c.input != input_kind::random; });
  expect_caught_over(*GetParam(), cases);
}

INSTANTIATE_TEST_SUITE_P(PolybenchAtax, KnownBadAtax,
                         ::testing::ValuesIn(rows_caught_by(known_bad_variants(), caught_by::value_checks)), row_name<variant>);

// ---- the seed's fused kernel, one bug at a time ----

check_result run_fused(const atax_shape& s, input_kind kind, int block) {
  const atax_case c{find_variant("AtaxFusedAsWritten"), s, {block}, kind};
  return check_atax(c, *input_for(s, kind), process_cublas_handle());
}

// 1 x 1, block 32: the inner loop runs e to 31 past ny = 1, reading A[e] for e >= 1 — the guard's
// NaN canary — and NaN · x_s[e] (= 0) is NaN in y[0]. One block: no race.
TEST(FusedAsWrittenBugs, UncheckedInnerLoopReadsPastA) {
  KC_REQUIRE_GPU();
  const check_result r = run_fused({1, 1}, input_kind::random, 32);
  EXPECT_EQ(r.outcome, verdict::failed) << r.message;
  EXPECT_NE(r.message.find("NaN"), std::string::npos) << r.message;
}

// 32 x 32, block 32: one block (no race), every index inside A and tmp (32 divides both), y written
// for tid < 32 = ny: the transposed indexing A[tid + r·nx] = A[r][tid] is the only bug left. On
// PolyBench's symmetric init Aᵀ·x = A·x and the row passes (what the seed saw); on the Random
// input it fails with finite values, far outside the bound.
TEST(FusedAsWrittenBugs, TransposedIndexingHiddenBySymmetricInit) {
  KC_REQUIRE_GPU();
  const check_result symmetric = run_fused({32, 32}, input_kind::polybench, 32);
  EXPECT_TRUE(symmetric.passed()) << "PolyBench's symmetric init should hide the transposed indexing: " << symmetric.message;
  const check_result random = run_fused({32, 32}, input_kind::random, 32);
  EXPECT_EQ(random.outcome, verdict::failed) << random.message;
  EXPECT_EQ(random.message.find("NaN"), std::string::npos) << "expected wrong finite values: " << random.message;
}

// 65 x 33, block 32: y[tid] is written for tid < nx = 65, but y has ny = 33 entries. The write past
// y's end lands in its guard; the values written there are NaN carried from the reads past A, i.e.
// A's guard canary, and a double NaN's payload survives the arithmetic. With one canary for every
// buffer that put y's guard back bit for bit (measured on an H200), and only y's in-bounds NaNs
// failed the row; every buffer now has a canary of its own (fixtures/guarded_buffer.hpp), so the
// guard itself must catch the write.
TEST(FusedAsWrittenBugs, WritesYPastItsEndWhenNxExceedsNy) {
  KC_REQUIRE_GPU();
  const check_result r = run_fused({65, 33}, input_kind::random, 32);
  EXPECT_EQ(r.outcome, verdict::failed) << r.message;
  EXPECT_EQ(r.message.rfind("y: out-of-bounds write", 0), 0u) << r.message;
}

}  // namespace
}  // namespace kc::polybench::atax::testing
