#include "tests/reduction/reduction_checks.hpp"

#include "fixtures/compare.hpp"
#include "fixtures/error_bounds.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "reference/reduction_reference.hpp"

#include <sstream>

namespace kc::reduction::testing {

double tolerance_for(std::size_t depth, double abs_sum, double exact_unit) {
  if (exact_unit > 0.0 && abs_sum <= 0x1p24 * exact_unit) return 0.0;
  return float_sum_error_bound(depth + 1, abs_sum);
}

std::size_t library_summation_depth(std::size_t n) {
  const std::size_t warps = 32 * static_cast<std::size_t>(device_limits::of_current_device().multiprocessors);
  return (n + warps - 1) / warps + 32 + 32;
}

namespace {

// One line that identifies the case well enough to replay it.
std::string describe_case(const reduction_case& c, std::uint64_t seed, const std::string& extra) {
  std::ostringstream out;
  out << c.v->name << " (" << c.v->catalog_id << ", seed report " << c.v->seed << ", " << c.v->technique << "), n = " << c.n
      << ", " << c.config().describe() << extra << ", input " << name_of(c.input) << ", input seed " << seed
      << " [replay: KCONFORM_SEED=" << base_seed() << " and --gtest_filter='*" << c.name() << "']";
  return out.str();
}

// Synchronises and turns a fault into a failure message. Sticky errors say the context is gone.
bool synchronised(std::string& problem) {
  const cudaError_t error = cudaDeviceSynchronize();
  if (error == cudaSuccess) return true;
  problem = std::string("the kernel faulted: ") + cudaGetErrorName(error) + ": " + cudaGetErrorString(error) +
            (is_sticky_cuda_error(error) ? " (sticky: this process's CUDA context is unusable from here on)" : "");
  if (!is_sticky_cuda_error(error)) (void)cudaGetLastError();
  return false;
}

template <class Buffer>
bool guards_intact(const Buffer& buffer, const char* which, std::string& problem) {
  if (const auto violation = buffer.check_guards()) {
    problem = std::string(which) + ": " + violation->describe();
    return false;
  }
  return true;
}

}  // namespace

::testing::AssertionResult check_one_pass(const reduction_case& c, std::uint64_t seed) {
  const variant& v = *c.v;
  const device_limits& limits = device_limits::of_current_device();
  const reduce_config config = c.config();
  if (const launch_status status = validate_pass(v, c.n, config, limits); !status)
    return ::testing::AssertionFailure() << "the launcher refused a case the suite expects it to run: " << status.message()
                                         << "\n  case: " << describe_case(c, seed, "");
  const pass_geometry geometry = plan_pass(v, c.n, config, limits);
  const std::string context = describe_case(c, seed, " (grid " + std::to_string(geometry.grid) + ")");

  const reduction_input input = make_input(c.input, c.n, seed);
  const std::vector<reference::block_sum> expected = reference::reduce_pass(input.values, geometry.chunk_elements, geometry.grid);

  guarded_device_buffer<float> in(c.n), out(geometry.grid);
  in.upload(input.values);
  out.poison();
  if (const launch_status status = launch_pass(v, in.data(), c.n, out.data(), config); !status)
    return ::testing::AssertionFailure() << status.message() << "\n  case: " << context;
  std::string problem;
  if (!synchronised(problem) || !guards_intact(out, "partial sums", problem) || !guards_intact(in, "input", problem))
    return ::testing::AssertionFailure() << problem << "\n  case: " << context;

  const std::vector<float> actual = out.download();
  std::vector<double> sums(expected.size()), tolerances(expected.size());
  const std::size_t depth = geometry.summation_depth();
  for (std::size_t b = 0; b < expected.size(); ++b) {
    sums[b] = expected[b].sum;
    tolerances[b] = tolerance_for(depth, expected[b].abs_sum, input.exact_unit);
  }
  const comparison result = compare_within(sums, actual, tolerances);
  if (!result.ok())
    return ::testing::AssertionFailure() << "one pass: " << result.describe("block") << "\n  case: " << context;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult check_full_reduction(const reduction_case& c, std::uint64_t seed) {
  const variant& v = *c.v;
  const reduce_config config = c.config();
  const std::string context = describe_case(c, seed, "");
  const reduction_input input = make_input(c.input, c.n, seed);
  const double expected = reference::reduce_sum(input.values);
  const double abs_sum = reference::reduce_abs_sum(input.values);

  const std::size_t scratch_size = std::max<std::size_t>(1, scratch_elements(v, c.n, config));
  guarded_device_buffer<float> a(c.n), scratch(scratch_size);
  a.upload(input.values);
  scratch.poison();
  const reduce_outcome outcome = reduce(v, a.data(), c.n, scratch.data(), scratch_size, config);
  if (!outcome.status) return ::testing::AssertionFailure() << outcome.status.message() << "\n  case: " << context;
  std::string problem;
  if (!synchronised(problem) || !guards_intact(a, "buffer A (input)", problem) ||
      !guards_intact(scratch, "buffer B (scratch)", problem))
    return ::testing::AssertionFailure() << problem << "\n  case: " << context;

  float actual = 0.0f;
  if (const cudaError_t error = cudaMemcpy(&actual, outcome.result, sizeof(float), cudaMemcpyDeviceToHost); error != cudaSuccess)
    return ::testing::AssertionFailure() << "reading the result failed: " << cudaGetErrorName(error) << "\n  case: " << context;

  const std::size_t depth = v.has_pass() ? outcome.plan.summation_depth() : library_summation_depth(c.n);
  const double tolerance = tolerance_for(depth, abs_sum, input.exact_unit);
  const comparison result = compare_within(std::span(&expected, 1), std::span(&actual, 1), std::span(&tolerance, 1));
  if (!result.ok()) {
    std::ostringstream plan;
    for (const pass_geometry& pass : outcome.plan.passes) plan << ' ' << pass.n << "->" << pass.grid << 'x' << pass.block;
    return ::testing::AssertionFailure() << "total: " << result.describe("sum") << "\n  passes (n->grid x block):"
                                         << (plan.str().empty() ? std::string(" library") : plan.str())
                                         << ", result read from " << (outcome.result == a.data() ? "A" : "B")
                                         << "\n  case: " << context;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace kc::reduction::testing
