// The PolyBench ATAX family's grading program: the family's own shapes, inputs and check
// (tests/polybench/atax_cases.hpp, atax_checks.hpp: every y[j] within the error bound γ_(nx+ny)·M_j,
// guards on A, x, tmp and y, A and x unchanged, tmp and y poisoned), run against the submission's
// row at each block it declares, every case scored in a rubric group (graded_case.hpp); and the
// performance case, which times the submission against the family's reference variant in the same
// process. Driven by scripts/grade.sh (docs/grading.md); without a submission it lists no case.
//
// The sweep: the family's 12 shapes × its input kinds (PolyBench's init where nx, ny >= 2, seeded
// non-symmetric Random everywhere: 21 cases, 27 with the grading-only squares below) × the declared blocks. Groups, first match wins:
//   large_sizes  the seed's scale, 4096 × 4096 (the sweep's largest), both inputs, every block
//   edge_inputs  the degenerate shapes, nx = 1 or ny = 1 (1 × 1, 1 × 1000, 1000 × 1; Random only, as
//                PolyBench's init is all zeros there), every block: one product has a single thread
//                or a single output, and the seed's grid over nx is one block. PolyBench's init is
//                not a group of its own: it is the benchmark's own input, so it stays beside Random in
//                every group, and a kernel right only for symmetric A (PolyBench's square init hides
//                the transposed first product) loses the Random half of each group's squares.
//   configs      the other shapes at a declared block other than the first
//   odd_sizes    non-square shapes at the first block (33 × 65, 65 × 33, 97 × 101, 255 × 257, 4096 × 17,
//                17 × 4096): where nx and ny, row and column extents, A's and Aᵀ's strides differ, so a
//                mix-up of nx and ny shows; both extents odd except 4096
//   small_sizes  the rest: the squares (2 × 2, 3 × 3, and the grading-only 32², 256², 1024²) at the first block
// At 4 declared blocks that is 108 cases; the largest, 4096² (128 MiB of A), runs in well under a
// second (the host reference, once per input per process, ~0.1 s).
#include "fixtures/compare.hpp"
#include "fixtures/cublas_handle.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/atax_submission.hpp"
#include "grading/graded_case.hpp"
#include "grading/graded_performance.hpp"
#include "grading/performance_hold.hpp"
#include "grading/submission_library.hpp"
#include "tests/polybench/atax_checks.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace kc::grading {
namespace {

namespace atax = polybench::atax;
using atax::testing::atax_case;
using atax::testing::input_kind;
using graded = graded_case<atax_case>;

// The seed's scale: the sweep's largest shape (4096 × 4096).
atax::atax_shape largest_shape() {
  const std::vector<atax::atax_shape> shapes = atax::testing::swept_shapes();
  return *std::max_element(shapes.begin(), shapes.end(), [](const atax::atax_shape& x, const atax::atax_shape& y) {
    return x.elements() < y.elements();
  });
}

graded grade(const atax_case& c) {
  graded g{c};
  const atax::atax_shape& s = c.s;
  if (s == largest_shape()) g.scored_in = group::large_sizes;
  else if (s.nx == 1 || s.ny == 1) g.scored_in = group::edge_inputs;
  else if (!(c.config == default_atax_config())) g.scored_in = group::configs;
  else if (s.nx != s.ny) g.scored_in = group::odd_sizes;
  else g.scored_in = group::small_sizes;
  g.alignment = (s.nx % 32 == 0) + (s.ny % 32 == 0);  // no dimension a whole number of warps first
  std::ostringstream text;
  text << s.describe() << ", " << c.config.describe() << ", " << atax::testing::name_of(c.input) << " input";
  g.description = text.str();
  g.work = static_cast<double>(s.elements());
  return g;
}

// The family's sweep (atax_cases.hpp: shape, input, then configuration, so consecutive cases share a
// prepared input) at the declared blocks instead of the suite's swept_blocks, and three aligned
// squares the sweep lacks (its squares are 2², 3² and the seed's 4096²), so that small_sizes is not
// decided by four cases: 32² (one warp per side), 256² (the seed's BLOCK_SIZE), 1024².
std::vector<atax::atax_shape> graded_shapes() {
  std::vector<atax::atax_shape> shapes = atax::testing::swept_shapes();
  for (const int side : {32, 256, 1024}) shapes.push_back({side, side});
  return shapes;
}

std::vector<graded> graded_cases() {
  std::vector<graded> out;
  for (const atax::variant& v : atax_submission())
    for (const atax::atax_shape& s : graded_shapes())
      for (const input_kind input : atax::testing::inputs_at(s))
        for (const int block : atax_declared_blocks()) out.push_back(grade(atax_case{&v, s, {block}, input}));
  return hardest_first(out);
}

// No KC_SKIP_IF_TOO_LARGE: every graded shape fits the GPUs the grader runs on, so a case that
// finds no device memory fails (see reduction_grading_test.cpp).
class Conformance : public ::testing::TestWithParam<graded> {};
TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  record_grading_properties(GetParam());
  const atax_case& c = GetParam().inner;
  expect_case_passed(atax::testing::check_atax(c, *atax::testing::input_for(c.s, c.input), process_cublas_handle()));
  expect_within_memory_limit();
  expect_seed_unchanged();
}
INSTANTIATE_TEST_SUITE_P(Grade, Conformance, ::testing::ValuesIn(graded_cases()), case_param_name<graded>);

// ---- performance: the submission against the reference variant at 4096 × 4096 ----
// The reference is AtaxTwoKernels at block 256 (the seed's BLOCK_SIZE): the two products as two
// launches, one thread per row then one per column, as a course teaches it. Both are timed
// interleaved (grading/judged_timing.hpp), the submission at its first declared block, on the
// Random input; the ratio of medians is what the rubric scores.
constexpr std::string_view reference_variant = "AtaxTwoKernels";
constexpr atax::atax_config reference_config{256};

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const performance_hold hold;  // its GPU to itself while it works, under --performance-overlap
  const atax::variant& submission = atax_submission().front();
  const atax::variant& reference = *atax::find_variant(reference_variant);
  const atax::atax_shape s = largest_shape();
  const atax::atax_config config = default_atax_config();
  std::ostringstream what;
  what << s.describe() << ", Random input, the submission at " << config.describe() << ", " << reference_variant
       << " at " << reference_config.describe();
  record_performance_case(what.str(), static_cast<double>(s.elements()), reference_variant, s.describe());
  const auto input = atax::testing::input_for(s, input_kind::random);
  const atax::launch_context context{nullptr, process_cublas_handle()};
  // Speed is scored only for a right answer at the shape timed.
  const check_result right =
      atax::testing::check_atax(atax_case{&submission, s, config, input_kind::random}, *input, context.cublas);
  ASSERT_TRUE(right.passed()) << "performance is not scored: the submission is wrong at the shape timed\n" << right.message;

  // The timed operands are copies of their own (the shared input stays pristine for other cases), so
  // the check after timing can give them new contents at the same addresses.
  const std::size_t nx = static_cast<std::size_t>(s.nx), ny = static_cast<std::size_t>(s.ny);
  device_buffer<double> a(s.elements()), x(ny), tmp_sub(nx), y_sub(ny), tmp_ref(nx), y_ref(ny);
  const cuda_stream stream;
  // Staged on the timing stream itself (the legacy stream's copies would not be ordered with it).
  const auto stage = [&](const atax::testing::prepared_input& from) {
    KC_CUDA_TRY(cudaMemcpyAsync(a.data(), from.pristine_a.data(), from.pristine_a.bytes(), cudaMemcpyDeviceToDevice,
                                stream.get()));
    KC_CUDA_TRY(cudaMemcpyAsync(x.data(), from.pristine_x.data(), from.pristine_x.bytes(), cudaMemcpyDeviceToDevice,
                                stream.get()));
  };
  stage(*input);
  const auto work = [&](const atax::variant& v, const atax::atax_config& cfg, device_buffer<double>& tmp,
                        device_buffer<double>& y) {
    graded_work w;
    w.work.run = [&v, cfg, &a, &x, &tmp, &y, s](cudaStream_t s_) {
      (void)atax::launch(v, a.data(), x.data(), tmp.data(), y.data(), s, cfg, {s_, process_cublas_handle()});
    };
    w.outputs = {{y.data(), y.bytes(), 8}, {tmp.data(), tmp.bytes(), 8, 0xFF}};  // tmp poisoned as the checks poison it
    return w;
  };
  time_against_reference(work(submission, config, tmp_sub, y_sub), work(reference, reference_config, tmp_ref, y_ref),
                         stream.get(), what.str());

  // New Random contents at the same addresses (another seed), tmp and y poisoned (0xFF bytes: NaN),
  // one more call. The answer is compared with the host reference for the new contents within the
  // check's own error bound (atax_checks.hpp: γ_(nx+ny)·M_j, whatever the summation order), as every
  // conformance case is.
  const auto fresh =
      atax::testing::prepare(s, input_kind::random, case_seed(base_seed(), "Performance.FreshContents"));
  stage(*fresh);
  KC_CUDA_TRY(cudaMemsetAsync(tmp_sub.data(), 0xFF, tmp_sub.bytes(), stream.get()));
  KC_CUDA_TRY(cudaMemsetAsync(y_sub.data(), 0xFF, y_sub.bytes(), stream.get()));
  // A refused or failed launch is its own failure, not a replayed answer.
  // Called as the timing called it (run_as_timed: one direct call), so what was timed is judged.
  const launch_status launched = run_as_timed(
      [&](cudaStream_t st) {
        return atax::launch(submission, a.data(), x.data(), tmp_sub.data(), y_sub.data(), s, config, {st, context.cublas});
      },
      stream.get());
  ASSERT_TRUE(launched.is_ok()) << launched.message();
  const std::vector<double> got = y_sub.download();
  const comparison result = compare_within(fresh->expected.y, got, fresh->tolerance);
  if (!result.ok()) ADD_FAILURE() << earlier_calls_message("differed from the reference beyond the error bound: " + result.describe("y"));
  expect_within_memory_limit();
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!atax_submission().empty())),
                         case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
