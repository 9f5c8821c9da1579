// The occupancy family's grading program (seed 003's occupancy scenarios, KERNELS.md §4 and §6): the
// access family's own scenario sweep and check (tests/access: access_cases.hpp's scenario_sweep,
// access_checks.hpp's check_access — inputs kept pristine, guard zones, C poisoned, the exact host
// reference bit for bit) run against the submission's vector add; the occupancy question as graded
// answers, judged against the CUDA runtime and the suite's calculator (reference/occupancy.hpp); and
// the performance case, which times the vector add against the suite's VectorAdd in the same process.
// Driven by scripts/grade.sh (docs/grading.md); without a submission it lists no case.
//
// The vector add's cases are scenario_sweep's: n = 1, 31, 32, 33, 64, 128, 256, 512, 1000, 1024,
// 1535, 2048, 4096, 8192, 16384, 32768, 40000, 65536 (the lab's 32 ... 65,536 and sizes between and
// below them) × both inputs (the seed's data, non-zero integers) × S1 and S2, 100 repeats: 72 cases.
// Groups, first match wins:
//   large_sizes  n >= 16384, both scenarios: the lab's largest sizes, where both launch blocks of
//                1024 and the grid has at least 16 blocks (the lab's "one block per SMX" point)
//   edge_inputs  the occupancy answers: one case per block 32, 64, 96, 128, 256, 512, 1024 (96: three
//                warps, where the warp limit gives a block count no power-of-two table has). Each
//                first runs kc_vector_add at that block and requires kc_vector_add_kernel() to be the
//                one kernel it launched (grading/launched_kernels.hpp): an answer for another kernel
//                fails whatever its numbers
//   configs      S2 below 16384: blocks of 32 to 512 over several blocks. S1 is the default because it
//                is the lab's first scenario and the one whose blocks are not whole warps (block = n
//                for n <= 1024: 1, 31, 33, 1000), which the odd sizes need; S2's blocks are powers of
//                two from 32, the other configurations.
//   odd_sizes    S1 at n not a multiple of 32 (1, 31, 33, 1000, 1535): a partial last warp
//   small_sizes  S1 at the other sizes below 16384
// 79 cases and the performance case; the largest touches 3 × 256 KiB (n = 65536).
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "grading/executor/remote_submission.hpp"
#include "grading/graded_case.hpp"
#include "grading/access_graded_case.hpp"
#include "grading/access_row_performance.hpp"
#include "grading/graded_performance.hpp"
#include "grading/launched_kernels.hpp"
#include "grading/occupancy_submission.hpp"
#include "grading/performance_hold.hpp"
#include "grading/submission_library.hpp"
#include "reference/occupancy.hpp"
#include "tests/access/access_checks.hpp"

#include <cuda_runtime_api.h>
#include <cxxabi.h>

#include <cstdlib>
#include <optional>
#include <sstream>
#include <vector>

namespace kc::grading {
namespace {

using access::access_config;
using access::scenario;
using access::testing::access_case;
using access::testing::input_kind;
using graded = graded_access_case;

constexpr std::size_t large_n = 16'384;

graded grade(const access_case& c) {
  graded g{c};
  const int block = c.config.block;
  if (c.n >= large_n) g.scored_in = group::large_sizes;
  else if (c.config.from == scenario::s2) g.scored_in = group::configs;
  else if (c.n % 32 != 0) g.scored_in = group::odd_sizes;
  else g.scored_in = group::small_sizes;
  // A partial last warp first, then a partial last block, then whole blocks.
  g.alignment = c.n % 32 != 0 ? 0 : c.n % static_cast<std::size_t>(block) != 0 ? 1 : 2;
  std::ostringstream text;
  text << "kc_vector_add, n = " << c.n << ", " << access::name_of(c.config.from) << " block " << block << " (grid "
       << access::grid_for(c.n, block) << "), repeats " << c.config.repeats << ", "
       << (c.input == input_kind::seed_data ? "the seed's data" : "integer") << " input";
  g.description = text.str();
  g.work = static_cast<double>(c.n);
  return g;
}

std::vector<graded> graded_cases() {
  std::vector<graded> out;
  for (const access_case& c : access::testing::scenario_sweep(vector_add_submission())) out.push_back(grade(c));
  return hardest_first(out);
}

// No KC_SKIP_IF_TOO_LARGE: every graded size fits the GPUs the grader runs on.
class VectorAdd : public ::testing::TestWithParam<graded> {};
TEST_P(VectorAdd, MatchesReference) {
  KC_REQUIRE_GPU();
  run_graded_access_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Grade, VectorAdd, ::testing::ValuesIn(graded_cases()), case_param_name<graded>);

// ---- the occupancy answers ----

struct answer_case {
  int block = 0;
  std::string name() const { return "SubmissionOccupancyB" + std::to_string(block); }
  double cost() const { return 0.001; }  // two runtime queries and a call
};
using graded_answer = graded_case<answer_case>;

std::vector<graded_answer> answer_cases() {
  std::vector<graded_answer> out;
  if (vector_add_submission().empty()) return out;
  for (const int block : {32, 64, 96, 128, 256, 512, 1024}) {
    graded_answer g{answer_case{block}};
    g.scored_in = group::edge_inputs;
    g.alignment = block % 64 == 32 ? 0 : 1;  // the odd warp counts first
    g.description = "the occupancy answer for kc_vector_add_kernel() at block " + std::to_string(block) +
                    ": active blocks and warps per SM";
    g.work = block;
    out.push_back(g);
  }
  return hardest_first(out);
}

// The device's SM as the calculator sees it, read once per process.
const occupancy::sm_limits& device_sm() {
  static const occupancy::sm_limits sm = [] {
    cudaDeviceProp p{};
    KC_CUDA_TRY(cudaGetDeviceProperties(&p, gpu::current().device));
    return occupancy::sm_limits::from_device_properties(p);
  }();
  return sm;
}

// A kernel in messages: its function's name (demangled, as the executor's runtime names it), else its
// address there. Kernels are the executor's tokens (grading/executor/remote_submission.hpp).
std::string kernel_name(const void* kernel) {
  const wire::reply info = remote::kernel_info(reinterpret_cast<std::uintptr_t>(kernel), 32);
  if (!info.kernel_name.empty()) return info.kernel_name;
  std::ostringstream text;
  text << "the function at " << kernel;
  return text.str();
}

// The answer is about the kernel kc_vector_add runs: kc_vector_add is called at this block (grid 16,
// the graded repeats, inputs of ones) and the kernels it launched are read from the submission's
// launch record; `named` must be the one kernel it launched, however many times.
check_result check_named_kernel_is_launched(const void* named, int block) {
  const std::size_t n = 16 * static_cast<std::size_t>(block);
  device_buffer<float> a(n), b(n), c(n);
  const std::vector<float> ones(n, 1.0f);
  a.upload(ones);
  b.upload(ones);
  const cuda_stream stream;
  const access_config config{block, access::testing::seed_repeats, access::testing::index_seed(n), scenario::none};
  std::ostringstream call;
  call << "kc_vector_add at block " << block << " (n = " << n << ", grid " << access::grid_for(n, block) << ", "
       << config.repeats << " repeats)";
  (void)take_launched_kernels();  // what earlier calls launched is not this call's
  const launch_status launched =
      access::launch(vector_add_submission().front(), a.data(), b.data(), c.data(), n, config, stream.get());
  const std::optional<launched_kernels> seen = take_launched_kernels();
  if (!launched.is_ok())
    return check_result::fail(call.str() + " did not launch: " + launched.message() +
                              "; the occupancy answer is judged for the kernel kc_vector_add launches");
  KC_CUDA_TRY(cudaStreamSynchronize(stream.get()));
  // grade.sh links the guard in, exported: without it the launches are not seen, and an answer the
  // grader cannot tie to the launched kernel is not judged right.
  if (!seen)
    return check_result::fail("the submission's library does not export the grader's launch record "
                              "(kc_grader_launched_kernels): grade it through scripts/grade.sh and declare none of "
                              "the guard's symbols");
  std::string names;
  for (const void* k : seen->kernels) names += (names.empty() ? "" : "; ") + kernel_name(k);
  ::testing::Test::RecordProperty("launched_kernels", names);
  const std::string problem = named_kernel_problem(named, *seen, "kc_vector_add_kernel()", call.str(), kernel_name);
  return problem.empty() ? check_result::pass() : check_result::fail(problem);
}

// The answer is judged against cudaOccupancyMaxActiveBlocksPerMultiprocessor for the kernel the
// submission names (which must be the kernel kc_vector_add launches: checked first), at this block
// with no dynamic shared memory (the contract's launch). The suite's calculator, fed the kernel's
// registers and static shared memory and the device's limits, explains the number (which limit
// binds); the CUDA runtime is the judge where the two disagree, and the message says they did.
check_result check_answer(int block) {
  std::string problem;
  const void* kernel = submission_vector_add_kernel(&problem);
  if (kernel == nullptr) return check_result::fail(problem);
  if (check_result launched = check_named_kernel_is_launched(kernel, block); !launched.passed()) return launched;
  // The runtime's answers for that kernel come from the executor, where the kernel lives (its
  // cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor): docs/grading.md, "Trust
  // boundary", says what that leaves to the submission's process.
  const wire::reply info = remote::kernel_info(reinterpret_cast<std::uintptr_t>(kernel), block);
  if (info.kernel_query_error != 0)
    return check_result::fail(std::string("kc_vector_add_kernel() returned a pointer the CUDA runtime does not know as a "
                                          "kernel, or its occupancy at block ") +
                              std::to_string(block) + " could not be computed (" +
                              cudaGetErrorName(static_cast<cudaError_t>(info.kernel_query_error)) +
                              "): return the __global__ function itself, cast to const void*");
  struct {
    int numRegs;
    std::size_t sharedSizeBytes;
    int maxDynamicSharedSizeBytes;
  } attributes{info.num_regs, static_cast<std::size_t>(info.shared_size_bytes), info.max_dynamic_shared_bytes};
  const int runtime_blocks = info.occupancy_blocks;
  const occupancy::sm_limits& sm = device_sm();
  const int warps_per_block = (block + sm.warp_size - 1) / sm.warp_size;
  const int runtime_warps = runtime_blocks * warps_per_block;
  std::ostringstream context;
  context << "block " << block << " on " << sm.device << ": kc_vector_add_kernel() uses " << attributes.numRegs
          << " registers per thread and " << attributes.sharedSizeBytes << " B of static shared memory; the CUDA runtime "
          << "(cudaOccupancyMaxActiveBlocksPerMultiprocessor) says " << runtime_blocks << " active blocks per SM = "
          << runtime_warps << " warps of the SM's " << sm.max_warps_per_sm << " ("
          << (sm.max_warps_per_sm > 0 ? 100 * runtime_warps / sm.max_warps_per_sm : 0) << "% occupancy)";
  const occupancy::kernel_resources resources{
      block, attributes.numRegs, attributes.sharedSizeBytes, 0,
      attributes.sharedSizeBytes + attributes.maxDynamicSharedSizeBytes > sm.shared_memory_per_block};
  const occupancy::outcome calculated = occupancy::calculate(sm, resources);
  if (!calculated) {
    context << "\n  the suite's occupancy calculator could not compute it (" << calculated.error
            << "); the runtime is the judge";
  } else if (const occupancy::occupancy& o = *calculated.value; o.active_blocks_per_sm != runtime_blocks) {
    context << "\n  the suite's occupancy calculator says " << o.active_blocks_per_sm
            << " blocks per SM: the calculator and the runtime disagree here, and the runtime is the judge ("
            << o.describe() << ")";
  } else {
    context << "\n  the occupancy calculator agrees, bound by " << o.binding_names() << ": " << o.describe();
  }
  ::testing::Test::RecordProperty("active_blocks", runtime_blocks);
  ::testing::Test::RecordProperty("registers", attributes.numRegs);

  const occupancy_answer said = submission_occupancy_answer(block);
  if (!said.answered) return check_result::fail("kc_occupancy_answer(" + std::to_string(block) + ") gave no answer: " +
                                                said.problem + "\n  " + context.str());
  ::testing::Test::RecordProperty("answered_blocks", said.active_blocks_per_sm);
  ::testing::Test::RecordProperty("answered_warps", said.active_warps_per_sm);
  if (said.active_blocks_per_sm != runtime_blocks || said.active_warps_per_sm != runtime_warps)
    return check_result::fail("occupancy answer at block " + std::to_string(block) + ": you said " +
                              std::to_string(said.active_blocks_per_sm) + " active blocks and " +
                              std::to_string(said.active_warps_per_sm) + " active warps per SM, expected " +
                              std::to_string(runtime_blocks) + " blocks and " + std::to_string(runtime_warps) +
                              " warps (" + std::to_string(warps_per_block) + " warps per block)\n  " + context.str());
  return check_result::pass();
}

class OccupancyAnswer : public ::testing::TestWithParam<graded_answer> {};
TEST_P(OccupancyAnswer, MatchesRuntime) {
  KC_REQUIRE_GPU();
  record_grading_properties(GetParam());
  expect_case_passed(check_answer(GetParam().inner.block));
  expect_within_memory_limit();
  expect_seed_unchanged();
}
INSTANTIATE_TEST_SUITE_P(Grade, OccupancyAnswer, ::testing::ValuesIn(answer_cases()), case_param_name<graded_answer>);

// ---- performance: the vector add against the suite's VectorAdd at the lab's largest size ----
// n = 65536, where S1 and S2 both launch blocks of 1024 (64 blocks), at 10,000 repeats (the access
// perf test's scaling of the lab's 1,000,000 to milliseconds), the seed's data; both timed
// interleaved, at 10,000 repeats and at one (time_access_row_against_reference): the worse of the two
// ratios of medians is what the rubric scores, so a launcher that ignores `repeats` is scored on its
// one-pass time (tests/submissions/occupancy/ignores_repeats.cu).
constexpr std::size_t timed_n = 65'536;
constexpr int timed_repeats = 10'000;
constexpr std::string_view reference_variant = "VectorAdd";

class Performance : public ::testing::TestWithParam<performance_point> {};
TEST_P(Performance, AgainstReference) {
  KC_REQUIRE_GPU();
  const performance_hold hold;  // its GPU to itself while it works, under --performance-overlap
  const access::variant& submission = vector_add_submission().front();
  const access::variant& reference = *access::find_variant(reference_variant);
  const std::size_t n = timed_n;
  const access_config config{access::scenario_s1_block(n), timed_repeats, access::testing::index_seed(n), scenario::s1};
  std::ostringstream what;
  what << "kc_vector_add at n = " << n << ", S1 block " << config.block << ", " << timed_repeats << " repeats, against "
       << reference_variant << " at the same launch";
  record_performance_case(what.str(), static_cast<double>(n), reference_variant, "n = " + std::to_string(n));
  time_access_row_against_reference(submission, config, reference, config, n, what.str());
  expect_within_memory_limit();
}

INSTANTIATE_TEST_SUITE_P(Grade, Performance, ::testing::ValuesIn(performance_points(!vector_add_submission().empty())),
                         case_param_name<performance_point>);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(VectorAdd);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OccupancyAnswer);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Performance);

}  // namespace
}  // namespace kc::grading
