#include "tests/matmul/matmul_checks.hpp"

#include "fixtures/compare.hpp"
#include "fixtures/error_bounds.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "reference/matmul_reference.hpp"

#include <sstream>

namespace kc::matmul::testing {

const char* name_of(input_kind kind) {
  switch (kind) {
    case input_kind::integer: return "Integer";
    case input_kind::constants: return "ReportConstants";
    case input_kind::structured: return "Structured";
  }
  return "Unknown";
}

std::string shape_case::name() const {
  return std::string(v->name) + 'M' + std::to_string(s.m) + 'N' + std::to_string(s.n) + 'K' + std::to_string(s.k);
}

std::vector<shape> swept_shapes() {
  std::vector<shape> shapes;
  for (const int n : {1, 3, 4, 31, 32, 33, 64, 100, 127, 128, 255, 256, 512, 1000, 1024, 2048, 4096}) shapes.push_back({n, n, n});
  for (const shape s : {shape{1, 1000, 1}, shape{33, 65, 17}, shape{1000, 1, 1000}, shape{4096, 64, 4096}}) shapes.push_back(s);
  return shapes;
}

namespace {
constexpr double full_reference_limit = 0x1p30;  // m·n·k above this: Freivalds + spot checks

bool full_reference(const shape& s) { return static_cast<double>(s.m) * s.n * s.k <= full_reference_limit; }
}  // namespace

std::vector<shape_case> sweep(std::span<const variant> variants) {
  std::vector<shape_case> cases;
  const device_limits limits = device_limits::hopper_h100();
  for (const variant& v : variants)
    for (const shape& s : swept_shapes()) {
      bool runnable = false;
      for (const matmul_config& c : v.configs(s)) runnable |= static_cast<bool>(v.validate(s, c, limits));
      if (!runnable) continue;
      std::vector<input_kind> inputs{input_kind::integer, input_kind::structured};
      if (full_reference(s)) inputs.push_back(input_kind::constants);  // a bound, not exact: needs the full reference
      cases.push_back({&v, s, inputs});
    }
  return cases;
}

struct prepared_input {
  shape s;
  input_kind kind;
  std::uint64_t seed = 0;
  std::vector<float> a, b;
  std::vector<double> expected;  // full reference, when affordable
  guarded_device_buffer<float> device_a, device_b;
};

std::shared_ptr<const prepared_input> prepare(const shape& s, input_kind kind, std::uint64_t seed) {
  auto input = std::make_shared<prepared_input>();
  input->s = s;
  input->kind = kind;
  input->seed = seed;
  input->a.resize(static_cast<std::size_t>(s.m) * s.k);
  input->b.resize(static_cast<std::size_t>(s.k) * s.n);
  switch (kind) {
    case input_kind::integer:
      fill_uniform_integers(input->a, seed, -8, 8);
      fill_uniform_integers(input->b, seed ^ 0xB, -8, 8);
      break;
    case input_kind::constants:
      fill_constant(input->a, 1.0f);
      fill_constant(input->b, 0.01f);
      break;
    case input_kind::structured:
      for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < s.k; ++j) input->a[static_cast<std::size_t>(i) * s.k + j] = static_cast<float>((i + 2 * j) % 7 - 3);
      for (int i = 0; i < s.k; ++i)
        for (int j = 0; j < s.n; ++j) input->b[static_cast<std::size_t>(i) * s.n + j] = static_cast<float>((3 * i + j) % 5 - 2);
      break;
  }
  if (full_reference(s)) input->expected = reference::matmul(input->a, input->b, s.m, s.n, s.k);
  input->device_a = guarded_device_buffer<float>(input->a.size());
  input->device_b = guarded_device_buffer<float>(input->b.size());
  input->device_a.upload(input->a);
  input->device_b.upload(input->b);
  return input;
}

bool context_lost() { return is_sticky_cuda_error(cudaPeekAtLastError()); }

namespace {

std::string describe(const variant& v, const matmul_config& config, const prepared_input& input) {
  std::ostringstream out;
  out << v.name << " (" << v.catalog_id << ", " << v.technique << "), shape " << input.s.describe() << ", "
      << config.describe() << ", input " << name_of(input.kind) << ", seed " << input.seed
      << " [replay: KCONFORM_SEED=" << base_seed() << "]";
  return out.str();
}

// Element (i, j) is reported as index i·n + j; the message names it C[i][j].
std::string name_element(const comparison& result, int n) {
  std::string text = result.describe("C");
  std::ostringstream positions;
  for (const mismatch& m : result.first) positions << " C[" << m.index / n << "][" << m.index % n << ']';
  return text + "\n    positions:" + positions.str();
}

}  // namespace

::testing::AssertionResult check_matmul(const variant& v, const matmul_config& config, const prepared_input& input,
                                        const launch_context& context) {
  const shape& s = input.s;
  const std::string context_text = describe(v, config, input);
  if (const launch_status status = v.validate(s, config, device_limits::of_current_device()); !status)
    return ::testing::AssertionFailure() << "the launcher refused a configuration the suite expects it to run: "
                                         << status.message() << "\n  case: " << context_text;
  guarded_device_buffer<float> c(static_cast<std::size_t>(s.m) * s.n);
  c.poison();
  if (const launch_status status = launch(v, input.device_a.data(), input.device_b.data(), c.data(), s, config, context); !status)
    return ::testing::AssertionFailure() << status.message() << "\n  case: " << context_text;
  if (const cudaError_t error = cudaStreamSynchronize(context.stream); error != cudaSuccess) {
    if (!context_lost()) (void)cudaGetLastError();
    return ::testing::AssertionFailure() << "the kernel faulted: " << cudaGetErrorName(error) << ": " << cudaGetErrorString(error)
                                         << "\n  case: " << context_text;
  }
  if (const auto violation = c.check_guards())
    return ::testing::AssertionFailure() << "C: " << violation->describe() << "\n  case: " << context_text;
  for (const auto* in : {&input.device_a, &input.device_b})
    if (const auto violation = in->check_guards())
      return ::testing::AssertionFailure() << "an input matrix: " << violation->describe() << "\n  case: " << context_text;

  const std::vector<float> actual = c.download();
  if (!input.expected.empty()) {
    // Integer inputs: exact. The report's constants: every term is positive, so
    // sum|a·b| = C and the float dot-product bound is gamma(k)·C.
    std::vector<double> tolerance(actual.size(), 0.0);
    if (input.kind == input_kind::constants)
      for (std::size_t i = 0; i < tolerance.size(); ++i) tolerance[i] = float_dot_error_bound(s.k, input.expected[i]);
    const comparison result = compare_within(input.expected, actual, tolerance);
    if (!result.ok()) return ::testing::AssertionFailure() << name_element(result, s.n) << "\n  case: " << context_text;
    return ::testing::AssertionSuccess();
  }

  // Too large for the full reference (integer inputs only): exact spot checks, then Freivalds.
  std::vector<int> rows{0, s.m - 1};
  for (int r = 0; r < 6; ++r) rows.push_back(static_cast<int>(hash64(input.seed, 1000 + r) % s.m));
  for (const int row : rows) {
    const std::vector<double> expected = reference::matmul_row(input.a, input.b, s.n, s.k, row);
    const comparison result = compare_exact(expected, std::span(actual).subspan(static_cast<std::size_t>(row) * s.n, s.n));
    if (!result.ok())
      return ::testing::AssertionFailure() << "row " << row << ": " << result.describe("column") << "\n  case: " << context_text;
  }
  for (int e = 0; e < 256; ++e) {
    const int row = static_cast<int>(hash64(input.seed, 2000 + e) % s.m), col = static_cast<int>(hash64(input.seed, 3000 + e) % s.n);
    const double expected = reference::matmul_element(input.a, input.b, s.n, s.k, row, col);
    const float got = actual[static_cast<std::size_t>(row) * s.n + col];
    if (!(got == expected))
      return ::testing::AssertionFailure() << "C[" << row << "][" << col << "] expected " << expected << ", got " << got
                                           << "\n  case: " << context_text;
  }
  const reference::freivalds_outcome f = reference::freivalds(input.a, input.b, actual, s.m, s.n, s.k, 2, input.seed);
  if (!f.consistent)
    return ::testing::AssertionFailure() << "Freivalds: (C·x)[" << f.failing_row << "] = " << f.actual << " but (A·(B·x))["
                                         << f.failing_row << "] = " << f.expected << " (vector " << f.failing_vector
                                         << "): C is wrong somewhere in that row\n  case: " << context_text;
  return ::testing::AssertionSuccess();
}

}  // namespace kc::matmul::testing
