// The access family's grading program (seed 003's AC1 coalesced, AC2 random, AC3 grouped): the
// family's own sizes, inputs and check (tests/access/access_checks.hpp: the exact reference for the
// coalesced pattern; the index, group and spread oracles of the suite's cuRAND variants for the random
// and grouped ones, which the grader cannot replay) run against the submission's three rows
// (access_submission.hpp), every case scored in a rubric group (graded_case.hpp); and the performance
// case. Driven by scripts/grade.sh (docs/grading.md); without a submission it lists no case.
//
// The sweep: the suite's sizes (access_cases.hpp: 1, 31, 32, 33, 1000, 1535, 32768, 65537, 1000003,
// 4194304; the grouped pattern from 512 up) × every declared block (the grouped pattern: those that
// are whole warps) × the seed's data and random integers, 100 repeats; repeats 1 and 7 at n = 1000;
// and the edge cases below. Groups, first match wins:
//   large_sizes  n >= 4,194,304, the seed's large size
//   edge_inputs  the sizes where the seed's index formula r / (2^32 / n) overflows often enough to see,
//                for the random and grouped patterns: n = 1,048,577 (2^20 + 1: ~255 of the last
//                repeat's draws reach n) and n = 2,796,203 (a prime, 2^32 mod n = n - 512: ~1,820 do,
//                the most of any size below 4M, each at most 1,821 past the end: inside the guard,
//                so they read NaN and fail as values, not as faults); their grouped cases leave a
//                partial group of 1 and of 171 elements, which must never be chosen. And the suite's
//                overflow-seed case of the grouped pattern (n = 328,193: 641 whole groups, the count
//                whose 2^32 mod G is largest, and a partial group of one element; the seed on which the
//                suite's generator layout draws the group one past the last).
//   configs      the other cases at a declared block other than the first
//   odd_sizes    n not a multiple of 32 (a partial warp: 1, 31, 33, 1000, 1535, 65537, 1,000,003 — a
//                prime where the seed's index reaches n ~222 times), and the repeat cases (n = 1000)
//   small_sizes  the rest: n = 32 and 32,768 (the seed's small size) at the first block
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/access_graded_case.hpp"
#include "grading/access_submission.hpp"
#include "grading/graded_case.hpp"
#include "grading/access_row_performance.hpp"
#include "grading/graded_performance.hpp"
#include "grading/performance_hold.hpp"
#include "grading/submission_library.hpp"
#include "tests/access/access_checks.hpp"

#include <algorithm>
#include <bit>
#include <sstream>
#include <vector>

namespace kc::grading {
namespace {

using access::body;
using access::testing::access_case;
using access::testing::input_kind;
using graded = graded_access_case;

constexpr std::size_t large_n = 4'194'304;
// 2^20 + 1 and (2^23 + 1) / 3 = 2,796,203: see the header.
constexpr std::size_t edge_sizes[] = {1'048'577, 2'796'203};

bool grouped(const access::variant& v) { return v.computes == body::curand_group; }

// The suite's inputs at n (access_cases.cpp): the seed's data while 2·idx + 3 is an exact float.
std::vector<input_kind> inputs_at(std::size_t n) {
  if (n <= access::testing::seed_data_limit) return {input_kind::seed_data, input_kind::integer};
  return {input_kind::integer};
}

std::vector<int> blocks_for(const access::variant& v) {
  std::vector<int> out;
  for (const int block : declared_access_blocks())
    if (!v.whole_warps || block % access::warp_lanes == 0) out.push_back(block);
  return out;
}

access::access_config config_of(int block, int repeats, std::size_t n) {
  return {block, repeats, access::testing::index_seed(n), access::scenario::none};
}

graded grade(const access_case& c, bool edge) {
  graded g{c};
  if (c.n >= large_n) g.scored_in = group::large_sizes;
  else if (edge) g.scored_in = group::edge_inputs;
  else if (c.config.block != default_access_block()) g.scored_in = group::configs;
  else if (c.n % 32 != 0 || c.config.repeats != access::testing::seed_repeats) g.scored_in = group::odd_sizes;
  else g.scored_in = group::small_sizes;
  g.alignment = c.n % 32 != 0 ? 0 : std::has_single_bit(c.n) ? 2 : 1;
  std::ostringstream text;
  text << c.v->catalog_id << ' ' << access::name_of(c.v->computes) << ", n = " << c.n << ", " << c.config.describe() << ", "
       << access::testing::name_of(c.input) << " input";
  if (c.overflow_seed) text << ", the overflow seed";
  g.description = text.str();
  g.work = static_cast<double>(c.n);
  return g;
}

std::vector<graded> graded_cases() {
  std::vector<graded> out;
  const int first = default_access_block();
  for (const access::variant& v : access_submission()) {
    for (const std::size_t n : access::testing::swept_sizes())
      if (!grouped(v) || n >= access::group_floats)  // no whole group below 512: the suite refuses such n
        for (const input_kind input : inputs_at(n))
          for (const int block : blocks_for(v))
            out.push_back(grade({&v, n, config_of(block, access::testing::seed_repeats, n), input}, false));
    for (const input_kind input : inputs_at(1000))
      for (const int repeats : {1, 7}) out.push_back(grade({&v, 1000, config_of(first, repeats, 1000), input}, false));
    if (v.computes == body::coalesced) continue;  // no index formula to overflow
    for (const std::size_t n : edge_sizes)
      for (const input_kind input : inputs_at(n))
        for (const int block : blocks_for(v))
          out.push_back(grade({&v, n, config_of(block, access::testing::seed_repeats, n), input}, true));
    if (grouped(v)) {
      const std::size_t n = access::testing::overflow_seed_size;
      out.push_back(grade({&v, n, config_of(first, access::testing::seed_repeats, n), input_kind::seed_data, true}, true));
    }
  }
  // By size first (inputs are shared per size), then the hardest first within each group.
  std::stable_sort(out.begin(), out.end(), [](const graded& a, const graded& b) { return a.inner.n < b.inner.n; });
  return hardest_first(out);
}

// No KC_SKIP_IF_TOO_LARGE: every graded size fits the GPUs the grader runs on (4M floats, 48 MiB of
// A, B and C), so a case that finds no device memory fails (see reduction_grading_test.cpp).
class Conformance : public ::testing::TestWithParam<graded> {};
TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  run_graded_access_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Grade, Conformance, ::testing::ValuesIn(graded_cases()), case_param_name<graded>);

// ---- performance: the coalesced pattern against the suite's FullCoalesced at n = 4,194,304 ----
// Only the coalesced pattern is timed. Its time is the memory system's (A, B and C, 48 MiB, 100
// repeats), which any correct kernel can reach, and its answer is exact, so the check after timing is
// exact too. The random and grouped patterns' times are dominated by the generator the student chose
// (curand_init with subsequence t skips ahead 2^67·t draws: more time than the 100 gathers) and their
// answers are judged by oracles, not compared: a ratio there would score the generator, not the
// access pattern. The reference is FullCoalesced at the seed's block 1024 and 100 repeats on the
// seed's data; the submission runs at its first declared block. Both are timed interleaved, at 100
// repeats and at one (access_row_performance.hpp): the worse of the two ratios of medians is what the
// rubric scores, so a launcher that ignores `repeats` is scored on its one-pass time.
constexpr std::size_t timed_n = large_n;
constexpr std::string_view reference_variant = "FullCoalesced";
constexpr int reference_block = 1024;

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const performance_hold hold;  // its GPU to itself while it works, under --performance-overlap
  const access::variant& submission = access_submission().front();  // SubmissionCoalesced
  const access::variant& reference = *access::find_variant(reference_variant);
  const access::access_config config = config_of(default_access_block(), access::testing::seed_repeats, timed_n);
  const access::access_config reference_config = config_of(reference_block, access::testing::seed_repeats, timed_n);
  std::ostringstream what;
  what << "AC1 coalesced, n = " << timed_n << ", the submission at " << config.describe() << ", " << reference_variant
       << " at " << reference_config.describe();
  record_performance_case(what.str(), static_cast<double>(timed_n), reference_variant, "n = " + std::to_string(timed_n));
  time_access_row_against_reference(submission, config, reference, reference_config, timed_n, what.str());
  expect_within_memory_limit();
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!access_submission().empty())),
                         case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
