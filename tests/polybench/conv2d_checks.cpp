#include "tests/polybench/conv2d_checks.hpp"

#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_ops.hpp"
#include "fixtures/error_bounds.hpp"
#include "fixtures/failure_dump.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/guarded_buffer.hpp"
#include "fixtures/input_cache.hpp"
#include "fixtures/launch_aftermath.hpp"
#include "fixtures/replay.hpp"
#include "fixtures/time_spent.hpp"
#include "reference/polybench/conv2d_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace kc::polybench::conv2d::testing {

namespace poly = reference::polybench;

// ---- the bound ----

double conv2d_tolerance(double reference, double magnitude) {
  const long double u_gpu = 0x1p-53L, u_ref = 0x1p-64L;
  const long double gamma_gpu = 9 * u_gpu / (1 - 9 * u_gpu), gamma_ref = 9 * u_ref / (1 - 9 * u_ref);
  const long double bound = (gamma_gpu + gamma_ref) * magnitude + u_gpu * std::fabs(static_cast<long double>(reference));
  const double rounded = static_cast<double>(bound);
  return rounded == 0.0 ? 0.0 : std::nextafter(rounded, std::numeric_limits<double>::infinity());
}

double poison_value() {
  double value;
  unsigned char bytes[sizeof(double)];
  std::memset(bytes, poison_byte, sizeof bytes);
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

bool is_border(std::size_t i, std::size_t j, size_2d size) {
  return i == 0 || j == 0 || i + 1 == size.ni || j + 1 == size.nj;
}

namespace {

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

std::string value_of(double x) {
  if (same_bits(x, poison_value())) return "nan (the poison)";
  std::ostringstream out;
  out.precision(17);
  out << x;
  return out.str();
}

std::string at(std::size_t i, std::size_t j) { return "b[" + std::to_string(i) + "][" + std::to_string(j) + "]"; }

constexpr std::size_t max_listed = 8;

}  // namespace

std::string b_verdict::describe() const {
  std::ostringstream out;
  if (border_changed != 0)
    out << border_changed << " of " << border_checked
        << " border element(s) changed (the border must keep what b held before the launch, bit for bit)";
  if (interior_wrong != 0) {
    if (border_changed != 0) out << "; ";
    out << interior_wrong << " of " << interior_checked << " interior point(s) outside the error bound";
    if (interior_unwritten != 0) out << " (" << interior_unwritten << " never written: still the poison)";
  }
  if (!listed.empty()) out << "; first:" << listed;
  return out.str();
}

b_verdict judge_output(const prepared_input& input, std::span<const double> actual) {
  const size_2d size = input.size;
  b_verdict verdict;
  verdict.polybench.threshold_percent = poly::conv2d_threshold_percent;
  std::size_t listed = 0;
  const auto list = [&](const std::string& line) {
    if (listed++ < max_listed) verdict.listed += "\n    " + line;
  };
  for (std::size_t i = 0; i < size.ni; ++i) {
    const std::size_t row = i * size.nj;
    for (std::size_t j = 0; j < size.nj; ++j) {
      const double got = actual[row + j], want = input.expected[row + j];
      if (is_border(i, j, size)) {
        ++verdict.border_checked;
        if (!same_bits(got, want)) {
          ++verdict.border_changed;
          list(at(i, j) + " = " + value_of(got) + " (border: must keep its prior bytes, " + value_of(want) + ")");
        }
        continue;
      }
      ++verdict.interior_checked;
      const double allowed = conv2d_tolerance(want, input.magnitude[row + j]);
      const double error = std::fabs(got - want);
      if (!(error <= allowed)) {  // NaN fails
        ++verdict.interior_wrong;
        const bool unwritten = same_bits(got, poison_value());
        if (unwritten) ++verdict.interior_unwritten;
        std::ostringstream line;
        line.precision(17);
        line << at(i, j) << " expected " << want << ", got " << value_of(got);
        if (unwritten) line << " (never written)";
        else if (std::isnan(got)) line << " (NaN: a read of a guard's canary, out of bounds)";
        else line << " (error " << error << ", allowed " << allowed << ')';
        list(line.str());
      }
    }
    // PolyBench's figure over this row's interior, merged as percent_diff_over would over all of it.
    if (i >= 1 && i + 1 < size.ni && size.nj >= 3) {
      const poly::percent_diff_summary s = poly::percent_diff_over(
          std::span<const double>(input.expected).subspan(row + 1, size.nj - 2), actual.subspan(row + 1, size.nj - 2),
          poly::conv2d_threshold_percent);
      verdict.polybench.compared += s.compared;
      verdict.polybench.over_threshold += s.over_threshold;
      if (!(s.max_percent <= verdict.polybench.max_percent))
        verdict.polybench.max_percent = std::isnan(s.max_percent) ? s.max_percent : std::max(verdict.polybench.max_percent, s.max_percent);
    }
  }
  return verdict;
}

// ---- inputs ----

std::shared_ptr<prepared_input> make_host_input(input_kind kind, size_2d size, std::uint64_t seed) {
  auto input = std::make_shared<prepared_input>();
  input->size = size;
  input->kind = kind;
  input->seed = seed;
  input->a = make_input(kind, size, seed);
  const std::size_t count = size.ni * size.nj;
  input->expected.assign(count, poison_value());  // the border keeps what b held: the poison
  input->magnitude.assign(count, 0.0);
  poly::conv2d(input->a, size.ni, size.nj, input->expected, input->magnitude);
  return input;
}

std::shared_ptr<const prepared_input> prepare_input(input_kind kind, size_2d size, std::uint64_t seed) {
  const time_spent::input_timer timer;  // issue 21: where the time goes
  std::shared_ptr<prepared_input> input = make_host_input(kind, size, seed);
  input->a_pristine = device_buffer<double>(input->a.size());
  input->a_pristine.upload(input->a);
  return input;
}

std::shared_ptr<const prepared_input> input_for(const conv2d_case& c) {
  const std::string key =
      "Conv2dNi" + std::to_string(c.size.ni) + "Nj" + std::to_string(c.size.nj) + name_of(c.input);
  return process_input_cache<prepared_input>().get(key, 4 * c.size.ni * c.size.nj * sizeof(double), [&] {
    return prepare_input(c.input, c.size, case_seed(base_seed(), key));
  });
}

// ---- the check ----

namespace {

std::string describe_case(const conv2d_case& c, const prepared_input& input) {
  const grid_2d grid = grid_for(c.size.ni, c.size.nj, c.config);
  std::ostringstream out;
  out << c.v->name << " (" << c.v->catalog_id << ", seed report " << c.v->seed << ", " << c.v->technique
      << "), a " << c.size.ni << " x " << c.size.nj << " (ni x nj), " << c.config.describe() << " (correct grid "
      << grid.x << " x " << grid.y << "), input " << name_of(c.input) << " (input seed " << input.seed
      << "), interior within (gamma_9(2^-53) + gamma_9(2^-64)) * sum|c*a| + 2^-53 * |ref|, border bit for bit"
      << "\n  replay: " << replay_command();
  return out.str();
}

std::string dump(const conv2d_case& c, const std::string& context, const prepared_input& input,
                 std::span<const double> actual) {
  const std::string path = write_failure_dump(current_test_full_name() + "." + c.name(), context,
                                              {{"a", {}, input.a}, {"expected", {}, input.expected}, {"actual", {}, actual}});
  return "\n  data: " + path;
}

}  // namespace

check_result check_conv2d(const conv2d_case& c, const prepared_input& input) {
  const variant& v = *c.v;
  const std::string context = describe_case(c, input);
  const std::size_t ni = c.size.ni, nj = c.size.nj, count = ni * nj, bytes = count * sizeof(double);
  if (const launch_status status = validate(v, ni, nj, c.config, device_limits::of_current_device()); !status)
    return check_result::refuse(status.message() + "\n  case: " + context);

  guarded_device_buffer<double> a(count), b(count);
  a.poison();
  b.poison(guard_role::write_only);  // a double output: its guard must show an atomicAdd too
  // b's prior contents are part of the contract (the border must come back unchanged), so they are
  // written here even under KCONFORM_EXACT_BUFFERS, where poison() leaves the memory uninitialised.
  KC_CUDA_TRY(cudaMemset(b.data(), poison_byte, bytes));
  const cuda_stream stream;
  enqueue_behind_delay(a.data(), input.a_pristine.data(), bytes, stream.get());
  if (const launch_status status = launch(v, a.data(), b.data(), ni, nj, c.config, stream.get()); !status) {
    (void)cudaDeviceSynchronize();
    return check_result::not_launched(status.what() == launch_status::kind::refused, status.message() + "\n  case: " + context);
  }
  launch_aftermath after;  // both guards and the input against its pristine copy: one read-back
  after.guards(b, "b").guards(a, "a").unchanged(a.data(), input.a_pristine.data(), bytes, "a");
  after.queue(stream.get());  // behind the launch, read back within its wait
  if (auto problem = fault_after_sync(stream.get())) return check_result::fail(*problem + "\n  case: " + context);
  after.read();
  if (const auto problem = after.guard_problem()) return check_result::fail(*problem + "\n  case: " + context);
  if (const auto problem = after.input_problem()) return check_result::fail(*problem + "\n  case: " + context);

  const std::vector<double> actual = b.download();
  const b_verdict verdict = judge_output(input, actual);
  const std::string polybench = verdict.polybench.describe();
  ::testing::Test::RecordProperty("polybench_check", polybench);
  if (!verdict.ok())
    return check_result::fail("b: " + verdict.describe() + "\n  " + polybench + " (the verdict is the error bound's)" +
                              "\n  case: " + context + dump(c, context, input, actual));
  return check_result::pass();
}

}  // namespace kc::polybench::conv2d::testing
