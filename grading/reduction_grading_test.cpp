// The reduction family's grading program: the family's own sweeps and checks
// (tests/reduction/reduction_checks.hpp), run against the submission's row, every case scored in a
// rubric group (graded_case.hpp); and the performance case, which times the submission against the
// family's reference variant in the same process. Driven by scripts/grade.sh (docs/grading.md);
// without a submission it lists no case.
#include "fixtures/cuda_stream.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/graded_case.hpp"
#include "grading/graded_performance.hpp"
#include "grading/performance_hold.hpp"
#include "grading/submission_library.hpp"
#include "grading/reduction_submission.hpp"
#include "tests/reduction/reduction_checks.hpp"

#include <bit>
#include <cmath>
#include <optional>
#include <sstream>

namespace kc::grading {
namespace {

using reduction::testing::input_kind;
using reduction::testing::reduction_case;
using graded = graded_case<reduction_case>;

constexpr std::size_t large_n = std::size_t{1} << 20;

graded grade(const reduction_case& c, bool edge, const char* check) {
  graded g{c};
  const int default_block = default_reduction_block(*c.v);
  if (c.n >= large_n) g.scored_in = group::large_sizes;
  else if (edge) g.scored_in = group::edge_inputs;
  else if (c.config.block != default_block || c.config.grid != 0) g.scored_in = group::configs;
  else if (!std::has_single_bit(c.n)) g.scored_in = group::odd_sizes;
  else g.scored_in = group::small_sizes;
  // Partial warps first, then partial blocks, then whole ones.
  g.alignment = c.n % 32 != 0 ? 0 : std::has_single_bit(c.n) ? 2 : 1;
  std::ostringstream text;
  text << "n = " << c.n << ", " << c.config.describe() << ", " << reduction::testing::name_of(c.input) << " input, "
       << check;
  g.description = text.str();
  g.work = static_cast<double>(c.n);
  return g;
}

std::vector<graded> graded_cases(const std::vector<reduction_case>& cases, bool edge, const char* check) {
  std::vector<graded> out;
  for (const reduction_case& c : cases) out.push_back(grade(c, edge, check));
  return hardest_first(out);
}

// No KC_SKIP_IF_TOO_LARGE here: every graded size fits the GPUs the grader runs on, so a case that
// finds no device memory fails (a submission that keeps memory would otherwise turn later cases
// into skips, which score neither way).
class OnePass : public ::testing::TestWithParam<graded> {};
TEST_P(OnePass, MatchesReference) {
  KC_REQUIRE_GPU();
  record_grading_properties(GetParam());
  const reduction_case& c = GetParam().inner;
  expect_case_passed(check_one_pass(c, *input_for(c)));
  expect_within_memory_limit();
  expect_seed_unchanged();
}

class FullReduction : public ::testing::TestWithParam<graded> {};
TEST_P(FullReduction, MatchesReference) {
  KC_REQUIRE_GPU();
  record_grading_properties(GetParam());
  const reduction_case& c = GetParam().inner;
  const auto input = input_for(c);
  // An n -> 1 submission's summation order is unknown, so its real-input bound is the worst order's,
  // gamma(n)·sum|x|; where that is wider than |total|, returning 0 would pass. Such a case cannot tell
  // a wrong answer, so it is not scored (a skip counts neither way); the exact integer input at the
  // same size is, whatever the order.
  if (!c.v->has_pass() && c.v->library_depth != nullptr && !input->host.exact()) {
    const double bound = reduction::testing::tolerance_for(c.v->library_depth(c.n), input->abs_total, input->host);
    if (bound >= std::abs(input->total))
      GTEST_SKIP() << "not scored: the worst summation order's error bound (" << bound << ") is wider than |total| ("
                   << std::abs(input->total) << "), so this case cannot tell a wrong answer; the integer input at n = "
                   << c.n << " is checked exactly";
  }
  std::optional<std::size_t> input_words_changed;
  expect_case_passed(check_full_reduction(c, *input, &input_words_changed));
  // The contract lets a KC_REDUCE_FULL reduction overwrite in[]; the report tells the student when
  // theirs did (a routine that promised a const input would be wrong to). A KC_REDUCE_PASS row runs
  // under the grader's own driver, which overwrites it by design: nothing to report.
  if (!c.v->has_pass() && input_words_changed)
    RecordProperty("input_overwritten", *input_words_changed != 0 ? "1" : "0");
  expect_within_memory_limit();
  expect_seed_unchanged();
}

INSTANTIATE_TEST_SUITE_P(Grade, OnePass,
                         ::testing::ValuesIn(graded_cases(reduction::testing::sweep_pass_variants(reduction_submission()),
                                                          false, "one pass (every block's sum)")),
                         case_param_name<graded>);
INSTANTIATE_TEST_SUITE_P(Grade, FullReduction,
                         ::testing::ValuesIn(graded_cases(reduction::testing::sweep(reduction_submission()), false, "n -> 1")),
                         case_param_name<graded>);
INSTANTIATE_TEST_SUITE_P(GradeEdgeInputs, FullReduction,
                         ::testing::ValuesIn(graded_cases(reduction::testing::edge_input_cases(reduction_submission()),
                                                          true, "n -> 1")),
                         case_param_name<graded>);

// ---- performance: the submission against the reference variant, n -> 1 at the seed's n = 2^24 ----
// The reference is seed 000's K3 (SequentialAddressing) at block 256: a hand-written reduction as a
// course teaches it. Both are timed interleaved (grading/judged_timing.hpp: drift falls on both),
// the submission at its default block; the ratio of medians is what the rubric scores.
constexpr std::size_t timed_n = std::size_t{1} << 24;
constexpr std::string_view reference_variant = "SequentialAddressing";

// The timed reduction: the input restored before each sample (a pass driver overwrites it), the
// scratch (where the total lands: its first float for an n -> 1 submission, whose own scratch after it
// is its business; all of it for a pass, whose driver keeps each pass's sums there) checked.
graded_work reduce_work(const reduction::variant& v, int block, const device_buffer<float>& pristine,
                        device_buffer<float>& a, device_buffer<float>& scratch) {
  graded_work graded;
  perf::timed_work& work = graded.work;
  work.prepare = [&a, &pristine](cudaStream_t s) {
    KC_CUDA_TRY(cudaMemcpyAsync(a.data(), pristine.data(), timed_n * sizeof(float), cudaMemcpyDeviceToDevice, s));
  };
  work.run = [&v, &a, &scratch, block](cudaStream_t s) {
    (void)reduction::reduce(v, a.data(), timed_n, scratch.data(), scratch.size(), {block, 0}, s);
  };
  graded.outputs = {{scratch.data(), (v.has_pass() ? scratch.size() : 1) * sizeof(float), 4}};
  return graded;
}

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const performance_hold hold;  // its GPU to itself while it works, under --performance-overlap
  const reduction::variant& submission = reduction_submission().front();
  const reduction::variant& reference = *reduction::find_variant(reference_variant);
  const int block = default_reduction_block(submission);
  std::ostringstream what;
  what << "n = " << timed_n << " -> 1, the submission at " << reduction::reduce_config{block, 0}.describe() << ", "
       << reference_variant << " at block 256";
  record_performance_case(what.str(), static_cast<double>(timed_n), reference_variant, std::to_string(timed_n));
  // Speed is scored only for a right answer at the size timed.
  const reduction_case timed{&submission, timed_n, {block, 0}, input_kind::integer};
  const check_result right = check_full_reduction(timed, *input_for(timed));
  ASSERT_TRUE(right.passed()) << "performance is not scored: the submission is wrong at the size timed\n" << right.message;

  const auto input = input_for(timed);
  device_buffer<float> a_sub(timed_n), a_ref(timed_n);
  device_buffer<float> scratch_sub(std::max<std::size_t>(1, reduction::scratch_elements(submission, timed_n, {block, 0})));
  device_buffer<float> scratch_ref(std::max<std::size_t>(1, reduction::scratch_elements(reference, timed_n, {256, 0})));
  const cuda_stream stream;
  time_against_reference(reduce_work(submission, block, input->pristine, a_sub, scratch_sub),
                         reduce_work(reference, 256, input->pristine, a_ref, scratch_ref), stream.get(), what.str());

  // New integer contents at the timed input's address, scratch poisoned (all bits set: NaN), one more
  // call: the total must be the new input's, exactly (the integer input's partial sums are exact in
  // any order: reduction_checks.hpp).
  const auto fresh = reduction::testing::prepare_input(input_kind::integer, timed_n,
                                                       case_seed(base_seed(), "Performance.FreshContents"));
  ASSERT_TRUE(fresh->host.exact());
  // Staged on the timing stream itself: the legacy stream's cudaMemset would not be ordered with it.
  KC_CUDA_TRY(cudaMemcpyAsync(a_sub.data(), fresh->pristine.data(), timed_n * sizeof(float), cudaMemcpyDeviceToDevice,
                              stream.get()));
  KC_CUDA_TRY(cudaMemsetAsync(scratch_sub.data(), 0xFF, scratch_sub.size() * sizeof(float), stream.get()));
  // Called as the timing called it (run_as_timed: one direct call), so what was timed is judged.
  reduction::reduce_outcome outcome;
  const launch_status launched = run_as_timed(
      [&](cudaStream_t st) {
        outcome = reduction::reduce(submission, a_sub.data(), timed_n, scratch_sub.data(), scratch_sub.size(), {block, 0}, st);
        return outcome.status;
      },
      stream.get());
  ASSERT_TRUE(launched.is_ok()) << launched.message();
  float got = 0;
  KC_CUDA_TRY(cudaMemcpy(&got, outcome.result, sizeof got, cudaMemcpyDeviceToHost));
  if (!(static_cast<double>(got) == fresh->total)) {
    std::ostringstream what_differs;
    what_differs << "was " << got << " where the new contents sum to " << fresh->total;
    ADD_FAILURE() << earlier_calls_message(what_differs.str());
  }
  expect_within_memory_limit();
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!reduction_submission().empty())), case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OnePass);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FullReduction);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
