// The matmul family's grading program: the family's own shapes, inputs and check
// (tests/matmul/matmul_checks.hpp), run against the submission's row, every case scored in a rubric
// group (graded_case.hpp); and the performance case, which times the submission against the
// family's reference variant in the same process. Driven by scripts/grade.sh (docs/grading.md);
// without a submission it lists no case.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/graded_case.hpp"
#include "grading/graded_performance.hpp"
#include "grading/performance_hold.hpp"
#include "grading/submission_library.hpp"
#include "grading/matmul_submission.hpp"
#include "tests/matmul/matmul_checks.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

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
  expect_seed_unchanged();
}
INSTANTIATE_TEST_SUITE_P(Grade, Conformance, ::testing::ValuesIn(graded_cases()), case_param_name<graded>);

// ---- performance: the submission against the reference variant at 2048³ ----
// The reference is the tiled kernel (SharedTiled, TILE_WIDTH 16): shared-memory tiling as a course
// teaches it. Both are timed interleaved (grading/judged_timing.hpp), the submission at its
// first declared configuration; the ratio of medians is what the rubric scores.
constexpr int timed_side = 2048;
constexpr std::string_view reference_variant = "SharedTiled";
constexpr matmul::matmul_config reference_config{16, 16};

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const performance_hold hold;  // its GPU to itself while it works, under --performance-overlap
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

  // The timed operands are copies of their own (the shared input stays pristine for other cases), so
  // the check after timing can give them new contents at the same addresses.
  const std::size_t elements = input->a.size();
  device_buffer<float> a(elements), b(elements), c_sub(elements), c_ref(elements);
  const cuda_stream stream;
  // Staged on the timing stream itself (the legacy stream's copies would not be ordered with it).
  const auto stage = [&](const matmul::testing::prepared_input& from) {
    KC_CUDA_TRY(cudaMemcpyAsync(a.data(), from.pristine_a.data(), elements * sizeof(float), cudaMemcpyDeviceToDevice,
                                stream.get()));
    KC_CUDA_TRY(cudaMemcpyAsync(b.data(), from.pristine_b.data(), elements * sizeof(float), cudaMemcpyDeviceToDevice,
                                stream.get()));
  };
  stage(*input);
  const auto work = [&](const matmul::variant& v, const matmul::matmul_config& cfg, device_buffer<float>& c) {
    graded_work w;
    w.work.run = [&v, cfg, &c, &a, &b, &input](cudaStream_t s_) {
      (void)matmul::launch(v, a.data(), b.data(), c.data(), input->s, cfg, {s_, process_cublas_handle()});
    };
    // C poisoned as the checks poison it: NaN, or for a kernel that reads C the finite fill.
    w.outputs = {{c.data(), elements * sizeof(float), 4,
                  static_cast<unsigned char>(v.reads_output ? matmul::testing::finite_fill_byte : 0xFF)}};
    return w;
  };
  time_against_reference(work(submission, config, c_sub), work(reference, reference_config, c_ref), stream.get(),
                         what.str());

  // New integer contents at the same addresses, C poisoned (all bits set: NaN; for a kernel that reads
  // C, the finite fill check_matmul uses), one more call each.
  // Integer inputs in [-8, 8] keep every partial sum below 2^24 at k = 2048, so every summation order
  // gives the exact product: the submission's C must equal the reference variant's bit for bit.
  const auto fresh = matmul::testing::prepare(s, input_kind::integer, case_seed(base_seed(), "Performance.FreshContents"));
  stage(*fresh);
  const auto poison = [&](const matmul::variant& v, device_buffer<float>& c) {
    KC_CUDA_TRY(cudaMemsetAsync(c.data(), v.reads_output ? matmul::testing::finite_fill_byte : 0xFF,
                                elements * sizeof(float), stream.get()));
  };
  poison(submission, c_sub);
  poison(reference, c_ref);
  // A refused or failed launch is its own failure, not a replayed answer.
  // Called as the timing called it (run_as_timed: one direct call), so what was timed is judged.
  const launch_status launched = run_as_timed(
      [&](cudaStream_t st) {
        return matmul::launch(submission, a.data(), b.data(), c_sub.data(), s, config, {st, process_cublas_handle()});
      },
      stream.get());
  ASSERT_TRUE(launched.is_ok()) << launched.message();
  const launch_status reference_launched = matmul::launch(reference, a.data(), b.data(), c_ref.data(), s,
                                                          reference_config, {stream.get(), process_cublas_handle()});
  ASSERT_TRUE(reference_launched.is_ok()) << reference_launched.message();
  KC_CUDA_TRY(cudaStreamSynchronize(stream.get()));
  std::vector<float> got(elements), want(elements);
  KC_CUDA_TRY(cudaMemcpy(got.data(), c_sub.data(), elements * sizeof(float), cudaMemcpyDeviceToHost));
  KC_CUDA_TRY(cudaMemcpy(want.data(), c_ref.data(), elements * sizeof(float), cudaMemcpyDeviceToHost));
  std::size_t differ = 0, first = elements;
  for (std::size_t i = 0; i < elements; ++i)
    if (!(got[i] == want[i])) {
      ++differ;
      first = std::min(first, i);
    }
  if (differ > 0) {
    std::ostringstream what_differs;
    what_differs << "differed from the reference's in " << differ << " of " << elements << " elements of C (first C["
                 << first / timed_side << "][" << first % timed_side << "] = " << got[first] << ", expected "
                 << want[first] << ")";
    ADD_FAILURE() << earlier_calls_message(what_differs.str());
  }
  expect_within_memory_limit();
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!matmul_submission().empty())), case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
