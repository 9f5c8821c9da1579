// The conv2d family's grading program (PolyBench Conv2D 3×3 in double, seed 004): the family's own
// sizes, inputs and check (tests/polybench/conv2d_cases.hpp, conv2d_checks.hpp: the interior within
// the error bound, the border bit for bit what b held before), run against the submission's row at
// every block it declares, every case scored in a rubric group (graded_case.hpp); and the
// performance case, which times the submission against the family's reference variant in the same
// process. Driven by scripts/grade.sh (docs/grading.md); without a submission it lists no case.
//
// The sizes are the suite's swept_sizes() and five aligned squares it lacks (16², 32², 64², 256²,
// 1024²: below 4096² every size the suite sweeps is odd or has no interior, which would leave
// small_sizes empty), each at both input kinds (PolyBench's [0, 1) reals and signed reals).
// Groups, first match wins:
//   large_sizes  the seed's scale: ni·nj >= 2^22 (4096 × 4096), every declared block
//   edge_inputs  shapes with no interior or a single interior row or column (ni < 4 or nj < 4:
//                1×1, 2×2, 3×3, 1×1000, 2×1000, 3×1000 and their transposes), every declared block:
//                a kernel must write nothing there, or only the one interior point, row or column
//   configs      the other sizes at a declared block other than the first
//   odd_sizes    the first block at sizes with a dimension not a multiple of 16, or non-square
//                (4×4, 18×18, 33×65, 65×33, 97×101, 4096×17, 17×4096): partial blocks, swapped grids
//   small_sizes  the first block at the aligned squares
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/conv2d_submission.hpp"
#include "grading/graded_case.hpp"
#include "grading/graded_performance.hpp"
#include "grading/performance_hold.hpp"
#include "grading/submission_library.hpp"
#include "tests/polybench/conv2d_checks.hpp"

#include <sstream>
#include <vector>

namespace kc::grading {
namespace {

namespace conv2d = polybench::conv2d;
using conv2d::conv2d_config;
using conv2d::testing::conv2d_case;
using conv2d::testing::input_kind;
using conv2d::testing::size_2d;
using graded = graded_case<conv2d_case>;

constexpr std::size_t large_elements = std::size_t{1} << 22;
constexpr std::size_t block_side = 16;  // the seed's block side: "aligned" means a multiple of it

std::vector<size_2d> graded_sizes() {
  std::vector<size_2d> sizes = conv2d::testing::swept_sizes();
  for (const std::size_t side : {16, 32, 64, 256, 1024}) sizes.push_back({side, side});
  return sizes;
}

graded grade(const conv2d_case& c) {
  graded g{c};
  const std::size_t ni = c.size.ni, nj = c.size.nj;
  const int aligned = (ni % block_side == 0) + (nj % block_side == 0);
  if (ni * nj >= large_elements) g.scored_in = group::large_sizes;
  else if (ni < 4 || nj < 4) g.scored_in = group::edge_inputs;
  else if (!(c.config == default_conv2d_config())) g.scored_in = group::configs;
  else if (aligned < 2 || ni != nj) g.scored_in = group::odd_sizes;
  else g.scored_in = group::small_sizes;
  g.alignment = aligned;  // sizes with no dimension a multiple of 16 first
  std::ostringstream text;
  text << "a " << ni << " x " << nj << " (ni x nj), " << c.config.describe() << ", "
       << conv2d::testing::name_of(c.input) << " input";
  g.description = text.str();
  g.work = static_cast<double>(ni * nj);
  return g;
}

// Ordered size, input, block (as the suite's sweep): consecutive cases share a prepared input.
std::vector<graded> graded_cases() {
  std::vector<graded> out;
  for (const conv2d::variant& v : conv2d_submission())
    for (const size_2d size : graded_sizes())
      for (const input_kind input : {input_kind::polybench, input_kind::signed_real})
        for (const conv2d_config& config : declared_conv2d_configs()) out.push_back(grade({&v, size, config, input}));
  return hardest_first(out);
}

// No KC_SKIP_IF_TOO_LARGE: every graded size fits the GPUs the grader runs on (4096²: two 128 MiB
// buffers and a pristine copy), so a case that finds no device memory fails (see
// reduction_grading_test.cpp).
class Conformance : public ::testing::TestWithParam<graded> {};
TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  record_grading_properties(GetParam());
  const conv2d_case& c = GetParam().inner;
  expect_case_passed(conv2d::testing::check_conv2d(c, *conv2d::testing::input_for(c)));
  expect_within_memory_limit();
  expect_seed_unchanged();
}
INSTANTIATE_TEST_SUITE_P(Grade, Conformance, ::testing::ValuesIn(graded_cases()), case_param_name<graded>);

// ---- performance: the submission against the reference variant at 4096² ----
// The reference is Conv2dDirect at 16×16: seed 004's own kernel (correct as written), one thread per
// element, nine loads from global memory. Both are timed interleaved, the submission at its first
// declared block; the ratio of medians is what the rubric scores.
constexpr std::size_t timed_side = 4096;
constexpr std::string_view reference_variant = "Conv2dDirect";
constexpr conv2d_config reference_config = conv2d::seed_block;

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const performance_hold hold;  // its GPU to itself while it works, under --performance-overlap
  const conv2d::variant& submission = conv2d_submission().front();
  const conv2d::variant& reference = *conv2d::find_variant(reference_variant);
  const size_2d s{timed_side, timed_side};
  const conv2d_config config = default_conv2d_config();
  const std::size_t elements = s.ni * s.nj, bytes = elements * sizeof(double);
  const std::string size = std::to_string(s.ni) + " x " + std::to_string(s.nj);
  std::ostringstream what;
  what << "a " << size << ", the submission at " << config.describe() << ", " << reference_variant << " at "
       << reference_config.describe();
  record_performance_case(what.str(), static_cast<double>(elements), reference_variant, size);
  // Speed is scored only for a right answer at the size timed.
  const conv2d_case timed{&submission, s, config, input_kind::polybench};
  const auto input = conv2d::testing::input_for(timed);
  const check_result right = conv2d::testing::check_conv2d(timed, *input);
  ASSERT_TRUE(right.passed()) << "performance is not scored: the submission is wrong at the size timed\n" << right.message;

  // The timed a is a copy of its own (the shared input stays pristine), so the check after timing
  // can give it new contents at the same address. Staged on the timing stream itself (the legacy
  // stream's copies would not be ordered with it).
  device_buffer<double> a(elements), b_sub(elements), b_ref(elements);
  const cuda_stream stream;
  KC_CUDA_TRY(cudaMemcpyAsync(a.data(), input->a_pristine.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
  const auto work = [&](const conv2d::variant& v, const conv2d_config& cfg, device_buffer<double>& b) {
    graded_work w;
    w.work.run = [&v, cfg, &b, &a, s](cudaStream_t on) { (void)conv2d::launch(v, a.data(), b.data(), s.ni, s.nj, cfg, on); };
    w.outputs = {{b.data(), bytes, 8}};  // the border keeps the 0xFF fill: compared as written
    return w;
  };
  time_against_reference(work(submission, config, b_sub), work(reference, reference_config, b_ref), stream.get(),
                         what.str());

  // New contents at the same address, b poisoned (all bytes 0xFF, as the check does), one more call,
  // judged by the check's own rule against the host reference for the new contents: the interior
  // within the error bound, the border bit for bit the poison. Within the bound, not bit for bit
  // against Conv2dDirect: the submission's order of the nine terms and its FMA contraction are its
  // own, so a correct kernel may differ from the reference variant in the last bits.
  const auto fresh = conv2d::testing::make_host_input(input_kind::polybench, s,
                                                      case_seed(base_seed(), "Performance.FreshContents"));
  KC_CUDA_TRY(cudaMemcpyAsync(a.data(), fresh->a.data(), bytes, cudaMemcpyHostToDevice, stream.get()));
  KC_CUDA_TRY(cudaMemsetAsync(b_sub.data(), poison_byte, bytes, stream.get()));
  // A refused or failed launch is its own failure, not a replayed answer.
  // Called as the timing called it (run_as_timed: one direct call), so what was timed is judged.
  const launch_status launched = run_as_timed(
      [&](cudaStream_t st) { return conv2d::launch(submission, a.data(), b_sub.data(), s.ni, s.nj, config, st); }, stream.get());
  ASSERT_TRUE(launched.is_ok()) << launched.message();
  const std::vector<double> got = b_sub.download();
  const conv2d::testing::b_verdict verdict = conv2d::testing::judge_output(*fresh, got);
  if (!verdict.ok()) ADD_FAILURE() << earlier_calls_message("did not match the new contents' b: " + verdict.describe());
  expect_within_memory_limit();
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!conv2d_submission().empty())),
                         case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
