#include "tests/matmul/matmul_checks.hpp"

#include "fixtures/compare.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_ops.hpp"
#include "fixtures/error_bounds.hpp"
#include "fixtures/failure_dump.hpp"
#include "fixtures/fingerprint.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "fixtures/input_cache.hpp"
#include "fixtures/launch_aftermath.hpp"
#include "fixtures/suite_case.hpp"
#include "fixtures/replay.hpp"
#include "fixtures/run_cache.hpp"
#include "fixtures/time_spent.hpp"
#include "reference/matmul_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace kc::matmul::testing {

double multiply_adds(const shape& s) { return static_cast<double>(s.m) * s.n * s.k; }

const char* name_of(input_kind kind) {
  switch (kind) {
    case input_kind::integer: return "Integer";
    case input_kind::constants: return "ReportConstants";
    case input_kind::structured: return "Structured";
    case input_kind::wide_integer: return "WideInteger";
    case input_kind::real: return "Real";
  }
  return "Unknown";
}

std::string matmul_case::name() const { return inner_case_name(*v, s, config, input); }

std::string matmul_case::unit() const {
  return std::string(v->name) + (multiply_adds(s) > 0x1p30 ? ".Large" : "");
}

// Two terms, each about one unit per ~2 ms on an H100/H200: the work (multiply-adds, which the CPU
// reference and the GPU both scale with) and the longest serial chain one thread runs (multiply-adds
// per thread, with a dependent load each: ~15 ns apiece, so 2^17 of them ~ 2 ms). The second term is
// what makes a 256^3 product with TILE_WIDTH 64 on 16 threads take ~30 ms while its work is tiny:
// without it, gpu-quick (cost <= 2) ran ~2,400 PatchPerThread cases in 27 s.
double matmul_case::cost() const {
  const double work = multiply_adds(s);
  const std::size_t threads = threads_launched(*v, s, config);
  const double chain = threads == SIZE_MAX ? 0.0 : work / static_cast<double>(threads);
  return 1.0 + work / 0x1p24 + chain / 0x1p17;
}

void PrintTo(const matmul_case& c, std::ostream* os) { print_case(c, os); }

std::vector<shape> swept_shapes() {
  std::vector<shape> shapes;
  for (const int n : {1, 3, 4, 31, 32, 33, 64, 100, 127, 128, 255, 256, 512, 1000, 1024, 2048, 4096}) shapes.push_back({n, n, n});
  for (const shape s : {shape{1, 1000, 1}, shape{33, 65, 17}, shape{1000, 1, 1000}, shape{4096, 64, 4096},
                        // outer products, long k with a small C, tall and wide
                        shape{64, 64, 1}, shape{1000, 999, 1}, shape{8, 8, 65536}, shape{3, 5, 20011},
                        shape{4096, 8, 64}, shape{8, 4096, 64}, shape{2049, 3, 129}, shape{3, 2049, 129}})
    shapes.push_back(s);
  // Three seeded random shapes, each dimension in [1, 600].
  for (std::uint64_t r = 0; r < 3; ++r)
    shapes.push_back({1 + static_cast<int>(hash64(0x3A7E5u, 3 * r) % 600), 1 + static_cast<int>(hash64(0x3A7E5u, 3 * r + 1) % 600),
                      1 + static_cast<int>(hash64(0x3A7E5u, 3 * r + 2) % 600)});
  return shapes;
}

namespace {
constexpr double full_reference_limit = 0x1p30;  // m·n·k above this: Freivalds + spot checks

bool full_reference(const shape& s) { return multiply_adds(s) <= full_reference_limit; }
}  // namespace

std::vector<input_kind> inputs_for(const shape& s) {
  std::vector<input_kind> inputs{input_kind::integer, input_kind::structured, input_kind::wide_integer};
  if (full_reference(s)) {  // a bound per element, not exact: needs the full reference
    inputs.push_back(input_kind::constants);
    inputs.push_back(input_kind::real);
  }
  return inputs;
}

namespace {
constexpr std::size_t parallel_enough = 4 * 32 * 132;  // 4 warps per SM of an H100
}  // namespace

std::size_t threads_launched(const variant& v, const shape& s, const matmul_config& config) {
  if (config.block == 0) return SIZE_MAX;
  const bool patch = v.catalog_id == "MM2" || v.catalog_id == "MM4";  // TILE_WIDTH² outputs per thread
  const bool single_block = v.catalog_id == "MM1" || v.catalog_id == "MM2";
  const std::size_t side = static_cast<std::size_t>(config.block) * (patch ? config.tile_width : 1);
  const std::size_t blocks = single_block ? 1 : ((s.m + side - 1) / side) * ((s.n + side - 1) / side);
  return blocks * config.block * config.block;
}

std::vector<matmul_config> swept_configs(const variant& v, const shape& s) {
  std::vector<matmul_config> all = v.configs(s);
  if (multiply_adds(s) <= 0x1p27 || all.empty()) return all;
  std::vector<matmul_config> kept;
  for (const matmul_config& c : all)
    if (threads_launched(v, s, c) >= parallel_enough) kept.push_back(c);
  if (kept.empty())
    kept.push_back(*std::max_element(all.begin(), all.end(), [&](const matmul_config& x, const matmul_config& y) {
      return threads_launched(v, s, x) < threads_launched(v, s, y);
    }));
  return kept;
}

bool runs_input(const variant& v, const shape& s, const matmul_config& config, input_kind kind) {
  if (multiply_adds(s) <= 0x1p30 || threads_launched(v, s, config) >= parallel_enough) return true;
  return kind == input_kind::wide_integer;
}

std::vector<matmul_case> every_case_of(const variant& v) {
  std::vector<matmul_case> cases;
  for (const shape& s : swept_shapes()) {
    const std::vector<matmul_config> configs = swept_configs(v, s);
    for (const input_kind kind : inputs_for(s))
      for (const matmul_config& config : configs)
        if (runs_input(v, s, config, kind)) cases.push_back({&v, s, config, kind});
  }
  return cases;
}

std::vector<matmul_case> sweep(std::span<const variant> variants) {
  std::vector<matmul_case> cases;
  const device_limits limits = device_limits::hopper_h100();
  for (const variant& v : variants) {
    const std::vector<matmul_case> all = every_case_of(v);
    for (std::size_t first = 0; first < all.size();) {  // cases come grouped by shape
      std::size_t end = first;
      bool runnable = false;  // the variant has some accepted configuration at this shape
      for (; end < all.size() && all[end].s.m == all[first].s.m && all[end].s.n == all[first].s.n && all[end].s.k == all[first].s.k; ++end)
        runnable |= static_cast<bool>(v.validate(all[end].s, all[end].config, limits));
      if (runnable) cases.insert(cases.end(), all.begin() + static_cast<std::ptrdiff_t>(first), all.begin() + static_cast<std::ptrdiff_t>(end));
      first = end;
    }
  }
  return cases;
}

namespace {

// The full reference is computed once per GPU run and shared by its processes (fixtures/run_cache.hpp)
// where that pays: ~10 units draw each (shape, input, seed), and at 2^30 multiply-adds it is ~0.5 s.
// Not below 2^24 multiply-adds (milliseconds), nor below k = 64, where each stored double stands for
// fewer than 64 multiply-adds (a wide, shallow product: a large file for little work).
bool reference_worth_sharing(const shape& s) { return s.k >= 64 && multiply_adds(s) >= 0x1p24; }

// Everything the reference depends on but A and B.
std::string reference_key(const shape& s, input_kind kind, bool exact, std::uint64_t seed) {
  return "MatmulReferenceM" + std::to_string(s.m) + 'N' + std::to_string(s.n) + 'K' + std::to_string(s.k) + name_of(kind) +
         (exact ? "Exact" : "Bound") + "Seed" + std::to_string(seed);
}

}  // namespace

std::shared_ptr<prepared_input> make_host_input(const shape& s, input_kind kind, std::uint64_t seed) {
  auto input = std::make_shared<prepared_input>();
  input->s = s;
  input->kind = kind;
  input->seed = seed;
  input->a.resize(static_cast<std::size_t>(s.m) * s.k);
  input->b.resize(static_cast<std::size_t>(s.k) * s.n);
  const double k = s.k;
  switch (kind) {
    case input_kind::integer:
      fill_uniform_integers(input->a, seed, -8, 8);
      fill_uniform_integers(input->b, seed ^ 0xB, -8, 8);
      input->exact = 64.0 * k <= 0x1p24;  // |every partial sum| <= sum|a·b| <= 64·k
      break;
    case input_kind::constants:
      fill_constant(input->a, 1.0f);
      fill_constant(input->b, 0.01f);
      input->exact = false;
      break;
    case input_kind::structured:
      for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < s.k; ++j) input->a[static_cast<std::size_t>(i) * s.k + j] = static_cast<float>((i + 2 * j) % 7 - 3);
      for (int i = 0; i < s.k; ++i)
        for (int j = 0; j < s.n; ++j) input->b[static_cast<std::size_t>(i) * s.n + j] = static_cast<float>((3 * i + j) % 5 - 2);
      input->exact = 6.0 * k <= 0x1p24;
      break;
    case input_kind::wide_integer: {
      // Odd magnitudes 2049, 2051, ..., 4095 (1024 values) with random signs.
      const std::int64_t count = static_cast<std::int64_t>(input->a.size());
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < count; ++i) {
        const std::uint64_t bits = hash64(seed, static_cast<std::uint64_t>(i));
        const float magnitude = static_cast<float>(2049 + 2 * static_cast<int>((bits >> 1) % 1024));
        input->a[i] = (bits & 1u) != 0 ? magnitude : -magnitude;
      }
      fill_nonzero_integers(input->b, seed ^ 0xB, 1);
      // Deterministically |partial sums| <= 4095·k; past 2^24 the random signs of B bound every
      // partial sum of all m·n dot products (at most 4·m·n·k of them) with failure <= 2^-64.
      const double nodes = 4.0 * s.m * s.n * k;
      input->exact = random_sign_partial_sum_bound(static_cast<std::size_t>(s.k), 4095.0, nodes) <= 0x1p24;
      break;
    }
    case input_kind::real:
      fill_uniform_reals(input->a, seed, -1.0f, 1.0f);
      fill_uniform_reals(input->b, seed ^ 0xB, -1.0f, 1.0f);
      input->exact = false;
      break;
  }
  if (full_reference(s)) {
    const auto compute = [&] {
      input->expected = reference::matmul(input->a, input->b, s.m, s.n, s.k);
      if (!input->exact) {
        std::vector<float> abs_a(input->a.size()), abs_b(input->b.size());
        for (std::size_t i = 0; i < abs_a.size(); ++i) abs_a[i] = std::fabs(input->a[i]);
        for (std::size_t i = 0; i < abs_b.size(); ++i) abs_b[i] = std::fabs(input->b[i]);
        input->abs_expected = reference::matmul(abs_a, abs_b, s.m, s.n, s.k);
      }
    };
    if (reference_worth_sharing(s))
      run_cache::load_or_compute(reference_key(s, kind, input->exact, seed), fingerprint(input->b, fingerprint(input->a)),
                                 compute, input->expected, input->abs_expected);
    else
      compute();
  } else if (!input->exact) {
    throw std::invalid_argument(std::string("input ") + name_of(kind) + " at " + s.describe() +
                                " is neither exact nor small enough for the full reference: no check could judge it");
  }
  return input;
}

std::shared_ptr<const prepared_input> prepare(const shape& s, input_kind kind, std::uint64_t seed) {
  const time_spent::input_timer timer;  // issue 21: where the time goes
  std::shared_ptr<prepared_input> input = make_host_input(s, kind, seed);
  input->pristine_a = device_buffer<float>(input->a.size());
  input->pristine_b = device_buffer<float>(input->b.size());
  input->pristine_a.upload(input->a);
  input->pristine_b.upload(input->b);
  return input;
}

std::shared_ptr<const prepared_input> input_for(const shape& s, input_kind kind) {
  const std::string key = "Matmul" + std::to_string(s.m) + 'x' + std::to_string(s.n) + 'x' + std::to_string(s.k) + name_of(kind);
  const double elements = static_cast<double>(s.m) * s.k + static_cast<double>(s.k) * s.n;
  const double reference = full_reference(s) ? 2.0 * s.m * s.n * sizeof(double) : 0.0;
  const auto bytes = static_cast<std::size_t>(2 * elements * sizeof(float) + reference);
  return process_input_cache<prepared_input>().get(key, bytes, [&] { return prepare(s, kind, case_seed(base_seed(), key)); });
}

bool context_lost() { return is_sticky_cuda_error(cudaPeekAtLastError()); }

namespace {

std::string describe(const variant& v, const matmul_config& config, const prepared_input& input) {
  std::ostringstream out;
  out << v.name << " (" << v.catalog_id << ", " << v.technique << "), shape " << input.s.describe() << ", "
      << config.describe() << ", input " << name_of(input.kind) << ", seed " << input.seed
      << (input.exact ? " (exact compare)" : " (error-bound compare)")
      << "\n  replay: " << replay_command();
  return out.str();
}

// Element (i, j) is reported as index i·n + j; the message names it C[i][j].
std::string name_element(const comparison& result, int n) {
  std::string text = result.describe("C");
  std::ostringstream positions;
  for (const mismatch& m : result.first) positions << " C[" << m.index / n << "][" << m.index % n << ']';
  return text + "\n    positions:" + positions.str();
}

// Freivalds' vector range and count for integer data: the double sums stay exact while
// max|C|·range·n < 2^53, and enough vectors make a wrong C pass with probability <= 2^-22.
struct freivalds_plan {
  int range = 1024;
  int vectors = 2;
};
freivalds_plan plan_freivalds(const prepared_input& input) {
  double max_a = 0, max_b = 0;
  for (const float x : input.a) max_a = std::max(max_a, static_cast<double>(std::fabs(x)));
  for (const float x : input.b) max_b = std::max(max_b, static_cast<double>(std::fabs(x)));
  const double max_c = max_a * max_b * input.s.k;
  freivalds_plan plan;
  while (plan.range > 2 && max_c * plan.range * input.s.n >= 0x1p53) plan.range /= 2;
  if (max_c * plan.range * input.s.n >= 0x1p53)
    throw std::invalid_argument("Freivalds' double sums would not be exact at " + input.s.describe());
  plan.vectors = static_cast<int>(std::ceil(22.0 / std::log2(2.0 * plan.range)));
  return plan;
}

}  // namespace

namespace {

std::shared_ptr<const large_product_checks> make_large_product_checks(const prepared_input& input) {
  const time_spent::input_timer timer;
  const shape& s = input.s;
  auto made = std::make_shared<large_product_checks>();
  made->rows = {0, s.m - 1};
  for (int r = 0; r < 6; ++r) made->rows.push_back(static_cast<int>(hash64(input.seed, 1000 + r) % s.m));
  made->row_expected.resize(made->rows.size());
#pragma omp parallel for schedule(dynamic)
  for (std::size_t r = 0; r < made->rows.size(); ++r)
    made->row_expected[r] = reference::matmul_row(input.a, input.b, s.n, s.k, made->rows[r]);
  for (int e = 0; e < 256; ++e)
    made->elements.emplace_back(static_cast<int>(hash64(input.seed, 2000 + e) % s.m), static_cast<int>(hash64(input.seed, 3000 + e) % s.n));
  made->element_expected.resize(made->elements.size());
#pragma omp parallel for schedule(static)
  for (std::size_t e = 0; e < made->elements.size(); ++e)
    made->element_expected[e] =
        reference::matmul_element(input.a, input.b, s.n, s.k, made->elements[e].first, made->elements[e].second);
  const freivalds_plan plan = plan_freivalds(input);
  made->freivalds = reference::freivalds_prepare(input.a, input.b, s.m, s.n, s.k, plan.vectors, input.seed, plan.range);
  return made;
}

}  // namespace

const large_product_checks& prepared_input::large_checks() const {
  std::call_once(large_drawn_, [this] { large_ = make_large_product_checks(*this); });
  return *large_;
}


std::string inner_case_name(const variant& v, const shape& s, const matmul_config& config, input_kind kind) {
  std::ostringstream out;
  out << v.name << 'M' << s.m << 'N' << s.n << 'K' << s.k;
  if (config.block != 0) out << 'B' << config.block << "TW" << config.tile_width;
  out << name_of(kind);
  return out.str();
}

check_result check_matmul(const variant& v, const matmul_config& config, const prepared_input& input,
                          const launch_context& context) {
  const shape& s = input.s;
  const std::string context_text = describe(v, config, input);
  if (const launch_status status = v.validate(s, config, device_limits::of_current_device()); !status)
    return check_result::refuse(status.message() + "\n  case: " + context_text);
  guarded_device_buffer<float> a(input.a.size()), b(input.b.size()), c(static_cast<std::size_t>(s.m) * s.n);
  a.poison();
  b.poison();
  if (v.reads_output) c.fill_bytes(finite_fill_byte);
  else c.poison(guard_role::write_only);
  const cuda_stream stream;
  enqueue_behind_delay(a.data(), input.pristine_a.data(), input.a.size() * sizeof(float), stream.get());
  KC_CUDA_TRY(cudaMemcpyAsync(b.data(), input.pristine_b.data(), input.b.size() * sizeof(float), cudaMemcpyDeviceToDevice,
                              stream.get()));
  const launch_context on_stream{stream.get(), context.cublas};
  if (const launch_status status = launch(v, a.data(), b.data(), c.data(), s, config, on_stream); !status) {
    (void)cudaDeviceSynchronize();
    return check_result::not_launched(status.what() == launch_status::kind::refused,
                                      status.message() + "\n  case: " + context_text);
  }
  launch_aftermath after;  // guards of C, A, B and both inputs against their pristine copies: one read-back
  after.guards(c, "C").guards(a, "A").guards(b, "B");
  after.unchanged(a.data(), input.pristine_a.data(), input.pristine_a.bytes(), "A")
      .unchanged(b.data(), input.pristine_b.data(), input.pristine_b.bytes(), "B");
  after.queue(stream.get());  // behind the launch, read back within its wait
  if (auto fault = fault_after_sync(stream.get())) return check_result::fail(*fault + "\n  case: " + context_text);
  after.read();
  if (const auto problem = after.guard_problem()) return check_result::fail(*problem + "\n  case: " + context_text);
  if (const auto problem = after.input_problem()) return check_result::fail(*problem + "\n  case: " + context_text);

  std::vector<float> downloaded;  // holds C unless it is large enough for the reused page-locked scratch
  const std::span<const float> actual = c.download_view(downloaded);
  const auto failure = [&](const std::string& what, std::span<const double> expected) {
    const std::string path = write_failure_dump(current_test_full_name() + "." + inner_case_name(v, s, config, input.kind),
                                                context_text, {{"A", input.a, {}}, {"B", input.b, {}},
                                                               {"expected", {}, expected}, {"actual", actual, {}}});
    return check_result::fail(what + "\n  case: " + context_text + "\n  data: " + path);
  };
  if (!input.expected.empty()) {
    // Exact inputs: exact. Others: Higham (3.5), |fl(a·b) − a·b| <= gamma(k)·(|a|·|b|) for any
    // summation order, fused multiply-adds included; one more u for the double reference's own
    // rounding (< k·2^-53 relative, far below u = 2^-24): gamma(k + 1).
    std::vector<double> tolerance(actual.size(), 0.0);
    if (!input.exact)
      for (std::size_t i = 0; i < tolerance.size(); ++i) tolerance[i] = float_dot_error_bound(s.k + 1, input.abs_expected[i]);
    const comparison result = compare_within(input.expected, actual, tolerance);
    if (!result.ok()) return failure(name_element(result, s.n), input.expected);
    return check_result::pass();
  }

  // Too large for the full reference (exact integer inputs only): exact spot checks, then Freivalds,
  // against what was drawn from A and B once for the input.
  const large_product_checks* large = &input.large_checks();
  for (std::size_t r = 0; r < large->rows.size(); ++r) {
    const int row = large->rows[r];
    const comparison result =
        compare_exact(large->row_expected[r], std::span(actual).subspan(static_cast<std::size_t>(row) * s.n, s.n));
    if (!result.ok()) return failure("row " + std::to_string(row) + ": " + result.describe("column"), {});
  }
  for (std::size_t e = 0; e < large->elements.size(); ++e) {
    const auto [row, col] = large->elements[e];
    const double expected = large->element_expected[e];
    const float got = actual[static_cast<std::size_t>(row) * s.n + col];
    if (!(got == expected))
      return failure("C[" + std::to_string(row) + "][" + std::to_string(col) + "] expected " + std::to_string(expected) +
                         ", got " + std::to_string(got),
                     {});
  }
  const reference::freivalds_outcome f = reference::freivalds_check(large->freivalds, actual);
  if (!f.consistent) {
    std::ostringstream what;
    what << "Freivalds: (C·x)[" << f.failing_row << "] = " << f.actual << " but (A·(B·x))[" << f.failing_row
         << "] = " << f.expected << " (vector " << f.failing_vector << "): C is wrong somewhere in that row";
    return failure(what.str(), {});
  }
  return check_result::pass();
}

}  // namespace kc::matmul::testing
