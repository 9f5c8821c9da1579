// The divergence family's grading program (seed 003's DV1 and DV2, KERNELS.md §4 and §6): the access
// family's own sizes, inputs and check (tests/access/access_checks.hpp: inputs kept pristine, guard
// zones, C poisoned, the exact host reference bit for bit) run against the submission's two rows,
// every case scored in a rubric group (graded_case.hpp); and the performance case, which times the
// submission's DV1 against the suite's WarpNoDivergence in the same process. Driven by
// scripts/grade.sh (docs/grading.md); without a submission it lists no case.
//
// The cases: for each entry point (DV1 kc_warp_no_divergence, DV2 kc_warp_divergence; a test suite
// each), the access sweep's sizes (swept_sizes: 1, 31, 32, 33, 1000, 1535, 32768, 65537, 1000003,
// 4194304) × its inputs (the seed's data A[i] = i + 1, B[i] = i + 2, and non-zero integers ±[1, 1000])
// at every block the submission declares and at the grader's blocks 96 and 97 (those not declared:
// divergence_submission.cpp says why these two), 100 repeats; and its repeat cases (repeats 1 and 7
// at n = 1000) at the default block. Groups, first match wins:
//   large_sizes  n = 4194304, the lab's size (n >= 4M), every block graded
//   edge_inputs  the repeat counts 1 and 7 (the result must not depend on the loop count: a body that
//                accumulates into C, or reads C, fails here). The suite's inputs have no zeros,
//                denormals or infinite quotients to make an edge input of (its integer input is
//                non-zero by design, so every quotient is finite), and sizes that are not whole
//                warps are odd_sizes' already; the repeat count is the family's one other axis.
//   configs      every other case at a block other than the first declared: the other declared
//                blocks and the grader's (a declared list that shares a multiple, 128 or 4, hides an op
//                taken from threadIdx.x instead of i; the grader's blocks are multiples of neither)
//   odd_sizes    n not a multiple of 32 (a partial last warp), at the default block
//   small_sizes  n = 32 and 32768, at the default block
// Per entry point, 20 cases (10 sizes × 2 inputs) per block graded and 4 repeat cases: a student who
// declares blocks {256, 32, 96, 1024} is graded at those and 97, 2 × (5 × 20 + 4) = 208 cases; one who
// declares {256} alone, at 256, 96 and 97, 2 × (3 × 20 + 4) = 128. The largest touches 3 × 16 MiB
// (n = 4194304), a few milliseconds of GPU time.
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/divergence_submission.hpp"
#include "grading/graded_case.hpp"
#include "grading/access_graded_case.hpp"
#include "grading/access_row_performance.hpp"
#include "grading/graded_performance.hpp"
#include "grading/performance_hold.hpp"
#include "grading/submission_library.hpp"
#include "tests/access/access_checks.hpp"

#include <sstream>
#include <vector>

namespace kc::grading {
namespace {

using access::access_config;
using access::scenario;
using access::testing::access_case;
using access::testing::input_kind;
using graded = graded_access_case;

constexpr std::size_t large_n = 4'194'304;
constexpr int repeat_mode_n = 1000;

// The access sweep's inputs at n: the seed's data where 2·idx + 3 is exact, integers everywhere.
std::vector<input_kind> inputs_at(std::size_t n) {
  if (n <= access::testing::seed_data_limit) return {input_kind::seed_data, input_kind::integer};
  return {input_kind::integer};
}

// The access sweep (sizes × inputs) at the declared blocks and the grader's, and its repeat cases at
// the default one.
std::vector<access_case> cases_of(const access::variant& v) {
  std::vector<int> blocks = divergence_blocks();
  blocks.insert(blocks.end(), grader_divergence_blocks().begin(), grader_divergence_blocks().end());
  std::vector<access_case> cases;
  for (const std::size_t n : access::testing::swept_sizes())
    for (const input_kind input : inputs_at(n))
      for (const int block : blocks)
        cases.push_back({&v, n, access_config{block, access::testing::seed_repeats, access::testing::index_seed(n)}, input});
  for (const input_kind input : inputs_at(repeat_mode_n))
    for (const int repeats : {1, 7})
      cases.push_back({&v, repeat_mode_n,
                       access_config{default_divergence_block(), repeats, access::testing::index_seed(repeat_mode_n)}, input});
  return cases;
}

graded grade(const access_case& c) {
  graded g{c};
  const int block = c.config.block;
  if (c.n >= large_n) g.scored_in = group::large_sizes;
  else if (c.config.repeats != access::testing::seed_repeats) g.scored_in = group::edge_inputs;
  else if (block != default_divergence_block()) g.scored_in = group::configs;
  else if (c.n % 32 != 0) g.scored_in = group::odd_sizes;
  else g.scored_in = group::small_sizes;
  // A partial last warp first, then a partial last block, then whole blocks.
  g.alignment = c.n % 32 != 0 ? 0 : c.n % static_cast<std::size_t>(block) != 0 ? 1 : 2;
  std::ostringstream text;
  text << c.v->catalog_id << (c.v->computes == access::body::branch_by_warp ? " (kc_warp_no_divergence)" : " (kc_warp_divergence)")
       << ", n = " << c.n << ", block " << block << ", repeats " << c.config.repeats << ", "
       << (c.input == input_kind::seed_data ? "the seed's data" : "integer") << " input";
  g.description = text.str();
  g.work = static_cast<double>(c.n);
  return g;
}

std::vector<graded> graded_cases(std::span<const access::variant> rows) {
  std::vector<graded> out;
  for (const access::variant& v : rows)
    for (const access_case& c : cases_of(v)) out.push_back(grade(c));
  return hardest_first(out);
}

// No KC_SKIP_IF_TOO_LARGE: every graded size fits the GPUs the grader runs on, so a case that finds
// no device memory fails (see reduction_grading_test.cpp).
class WarpNoDivergence : public ::testing::TestWithParam<graded> {};
TEST_P(WarpNoDivergence, MatchesReference) {
  KC_REQUIRE_GPU();
  run_graded_access_case(GetParam());
}
class WarpDivergence : public ::testing::TestWithParam<graded> {};
TEST_P(WarpDivergence, MatchesReference) {
  KC_REQUIRE_GPU();
  run_graded_access_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Grade, WarpNoDivergence, ::testing::ValuesIn(graded_cases(warp_no_divergence_submission())),
                         case_param_name<graded>);
INSTANTIATE_TEST_SUITE_P(Grade, WarpDivergence, ::testing::ValuesIn(graded_cases(warp_divergence_submission())),
                         case_param_name<graded>);

// ---- performance: the submission's DV1 against the suite's WarpNoDivergence at the lab's scale ----
// n = 4194304, 100 repeats (the lab's), the seed's data; the reference at the lab's block of 1024,
// the submission at its default block. Both timed interleaved, at 100 repeats and at one
// (access_row_performance.hpp): the worse of the two ratios of medians is what the rubric scores, so
// a launcher that ignores `repeats` gains nothing. Only DV1 is timed: DV2 is slower by design (every
// warp runs the four branches in turn), so its time says nothing about the student's code that DV1's
// does not.
constexpr std::string_view reference_variant = "WarpNoDivergence";
constexpr int reference_block = 1024;

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const performance_hold hold;  // its GPU to itself while it works, under --performance-overlap
  const access::variant& submission = warp_no_divergence_submission().front();
  const access::variant& reference = *access::find_variant(reference_variant);
  const std::size_t n = large_n;
  const access_config config{default_divergence_block(), access::testing::seed_repeats, access::testing::index_seed(n)};
  const access_config reference_config{reference_block, access::testing::seed_repeats, access::testing::index_seed(n)};
  std::ostringstream what;
  what << "DV1 at n = " << n << ", the submission at block " << config.block << ", " << reference_variant
       << " at block " << reference_block << ", " << config.repeats << " repeats";
  record_performance_case(what.str(), static_cast<double>(n), reference_variant, "n = " + std::to_string(n));
  time_access_row_against_reference(submission, config, reference, reference_config, n, what.str());
  expect_within_memory_limit();
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!warp_no_divergence_submission().empty())),
                         case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(WarpNoDivergence);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(WarpDivergence);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
