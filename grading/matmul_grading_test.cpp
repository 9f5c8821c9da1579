// The matmul family's grading program: the family's own shapes, inputs and check
// (tests/matmul/matmul_checks.hpp), run against the submission's row, every case scored in a rubric
// group (graded_case.hpp); and the performance case, which times the submission against the
// family's reference variant in the same process. Driven by scripts/grade.sh (docs/grading.md);
// without a submission it lists no case.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/graded_case.hpp"
#include "grading/graded_performance.hpp"
#include "grading/submission_library.hpp"
#include "grading/matmul_submission.hpp"
#include "tests/matmul/matmul_checks.hpp"

#include <sstream>

namespace kc::grading {
namespace {

using matmul::testing::input_kind;
using matmul::testing::matmul_case;
using graded = graded_case<matmul_case>;

graded grade(const matmul_case& c) {
  graded g{c};
  const matmul::shape& s = c.s;
  const double work = static_cast<double>(s.m) * s.n * s.k;
  const int aligned = (s.m % 32 == 0) + (s.n % 32 == 0) + (s.k % 32 == 0);
  if (work >= 0x1p27) g.scored_in = group::large_sizes;
  else if (c.input == input_kind::constants || c.input == input_kind::wide_integer) g.scored_in = group::edge_inputs;
  else if (!(c.config == default_matmul_config())) g.scored_in = group::configs;
  else if (aligned < 3) g.scored_in = group::odd_sizes;
  else g.scored_in = group::small_sizes;
  g.alignment = aligned;  // shapes with no dimension a multiple of 32 first
  std::ostringstream text;
  text << s.describe() << ", " << c.config.describe() << ", " << matmul::testing::name_of(c.input) << " input";
  g.description = text.str();
  g.work = work;
  return g;
}

std::vector<graded> graded_cases() {
  std::vector<graded> out;
  for (const matmul::variant& v : matmul_submission())
    for (const matmul_case& c : matmul::testing::every_case_of(v)) out.push_back(grade(c));
  return hardest_first(out);
}

// No KC_SKIP_IF_TOO_LARGE: every graded shape fits the GPUs the grader runs on, so a case that
// finds no device memory fails (see reduction_grading_test.cpp).
class Conformance : public ::testing::TestWithParam<graded> {};
TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  record_grading_properties(GetParam());
  const matmul_case& c = GetParam().inner;
  expect_case_passed(matmul::testing::check_matmul(*c.v, c.config, *matmul::testing::input_for(c.s, c.input),
                                                   {nullptr, process_cublas_handle()}));
  expect_within_memory_limit();
}
INSTANTIATE_TEST_SUITE_P(Grade, Conformance, ::testing::ValuesIn(graded_cases()), case_param_name<graded>);

// ---- performance: the submission against the reference variant at 2048³ ----
// The reference is the tiled kernel (SharedTiled, TILE_WIDTH 16): shared-memory tiling as a course
// teaches it. Both are timed interleaved (kc::perf::measure_interleaved), the submission at its
// first declared configuration; the ratio of medians is what the rubric scores.
constexpr int timed_side = 2048;
constexpr std::string_view reference_variant = "SharedTiled";
constexpr matmul::matmul_config reference_config{16, 16};

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const matmul::variant& submission = matmul_submission().front();
  const matmul::variant& reference = *matmul::find_variant(reference_variant);
  const matmul::shape s{timed_side, timed_side, timed_side};
  const matmul::matmul_config config = default_matmul_config();
  std::ostringstream what;
  what << s.describe() << ", the submission at " << config.describe() << ", " << reference_variant << " at "
       << reference_config.describe();
  record_performance_case(what.str(), static_cast<double>(timed_side) * timed_side * timed_side, reference_variant,
                          s.describe());
  const auto input = matmul::testing::input_for(s, input_kind::integer);
  const matmul::launch_context context{nullptr, process_cublas_handle()};
  // Speed is scored only for a right answer at the shape timed.
  const check_result right = matmul::testing::check_matmul(submission, config, *input, context);
  ASSERT_TRUE(right.passed()) << "performance is not scored: the submission is wrong at the shape timed\n" << right.message;

  device_buffer<float> c_sub(input->a.size()), c_ref(input->a.size());
  const cuda_stream stream;
  const auto work = [&](const matmul::variant& v, const matmul::matmul_config& cfg, device_buffer<float>& c) {
    perf::timed_work w;
    w.run = [&v, cfg, &c, &input](cudaStream_t s_) {
      (void)matmul::launch(v, input->pristine_a.data(), input->pristine_b.data(), c.data(), input->s, cfg,
                           {s_, process_cublas_handle()});
    };
    return w;
  };
  time_against_reference(work(submission, config, c_sub), work(reference, reference_config, c_ref), stream.get(),
                         what.str());
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!matmul_submission().empty())), case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
