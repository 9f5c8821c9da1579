#include "tests/reduction/reduction_checks.hpp"

#include "fixtures/compare.hpp"
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
#include "reference/reduction_reference.hpp"

#include <optional>
#include <sstream>

namespace kc::reduction::testing {

double tolerance_for(std::size_t depth, double abs_sum, const reduction_input& input) {
  if (input.exact()) return 0.0;
  return float_sum_error_bound(depth + 1, abs_sum);
}

std::size_t library_summation_depth(std::size_t n) {
  const std::size_t warps = 32 * static_cast<std::size_t>(device_limits::of_current_device().multiprocessors);
  return (n + warps - 1) / warps + 32 + 32;
}

std::shared_ptr<const prepared_input> prepare_input(input_kind kind, std::size_t n, std::uint64_t seed) {
  const time_spent::input_timer timer;  // issue 21: where the time goes
  auto input = std::make_shared<prepared_input>();
  input->kind = kind;
  input->seed = seed;
  input->host = make_input(kind, n, seed);
  input->total = reference::reduce_sum(input->host.values);
  input->abs_total = reference::reduce_abs_sum(input->host.values);
  input->pristine = device_buffer<float>(n);
  input->pristine.upload(input->host.values);
  return input;
}

std::shared_ptr<const std::vector<reference::block_sum>> prepared_input::first_pass_reference(std::size_t chunk, std::size_t grid) const {
  constexpr std::size_t kept = 4;  // geometries remembered per input (a sweep visits a few at a time)
  const std::lock_guard lock(first_pass_mutex_);
  for (const geometry_sums& g : first_passes_)
    if (g.chunk == chunk && g.grid == grid) return g.sums;
  const time_spent::input_timer timer;
  // The base sums are taken once a chunk can use them; a chunk that is no multiple of 32 (a
  // submission's odd block) takes the direct pass, with or without them.
  if (!base_sums_ && chunk % reference::default_base_chunk == 0) base_sums_ = reference::sum_base_chunks(host.values);
  auto sums = std::make_shared<const std::vector<reference::block_sum>>(
      base_sums_ ? reference::reduce_pass(host.values, *base_sums_, chunk, grid) : reference::reduce_pass(host.values, chunk, grid));
  if (first_passes_.size() == kept) first_passes_.pop_front();
  first_passes_.push_back({chunk, grid, sums});
  return sums;
}

std::shared_ptr<const prepared_input> input_for(const reduction_case& c, int round) {
  const std::string key = "ReductionN" + std::to_string(c.n) + name_of(c.input) + "Round" + std::to_string(round);
  // Host values and device copy, plus the first-pass base sums (two doubles per 32 elements).
  return process_input_cache<prepared_input>().get(key, 2 * c.n * sizeof(float) + c.n / 2, [&] {
    return prepare_input(c.input, c.n, case_seed(base_seed(), key));
  });
}

namespace {

// One line that identifies the case well enough to replay it exactly.
std::string describe_case(const reduction_case& c, const prepared_input& input, const std::string& extra) {
  std::ostringstream out;
  out << c.v->name << " (" << c.v->catalog_id << ", seed report " << c.v->seed << ", " << c.v->technique << "), n = " << c.n
      << ", " << c.config.describe() << extra << ", input " << name_of(c.input) << ", input seed " << input.seed
      << (input.host.exact() ? " (exact compare)" : " (error-bound compare)") << "\n  replay: " << replay_command();
  return out.str();
}

std::string dump(const reduction_case& c, const std::string& context, const prepared_input& input,
                 std::span<const double> expected, std::span<const float> actual) {
  const std::string path = write_failure_dump(current_test_full_name() + "." + c.name(), context,
                                              {{"input", input.host.values, {}}, {"expected", {}, expected},
                                               {"actual", actual, {}}});
  return "\n  data: " + path;
}

// Checks every pass of the generic driver (exact inputs only): after pass k, its output must equal
// the reference reduction of pass k−1's expected output, exactly. Each pass's output is copied, on the
// check's stream right behind the pass, into a snapshot of its own (the next pass may overwrite the
// buffer), and the snapshots are compared once the launch's one synchronisation is over. Why not
// synchronise after each pass, as the checker did until issue 35: when processes share the GPU, each
// synchronisation is a wait for this process's next GPU time slice, so a pass launched after one
// waited for a slice of its own.
struct pass_checker {
  struct snapshot {
    std::size_t index = 0;
    pass_geometry pass;
    device_buffer<float> output;
  };
  const prepared_input* input = nullptr;
  std::vector<snapshot> snapshots;
  std::size_t observed = 0;
  std::string problem;

  static void after_pass(void* self, std::size_t index, const pass_geometry& pass, const float* output, cudaStream_t stream) {
    auto& checker = *static_cast<pass_checker*>(self);
    ++checker.observed;
    if (!checker.problem.empty()) return;
    // Never throws but for a snapshot that does not fit (the case is then too large, as for its other
    // buffers): an error here is most often an earlier pass's fault, which the check reports from its
    // synchronisation, as it did when this observer synchronised.
    try {
      snapshot taken{index, pass, device_buffer<float>(pass.grid)};
      // Also behind anything on the legacy default stream: a pass a driver put there by mistake is
      // copied once it has run (and read the poison, enqueue_behind_delay).
      wait_for_enqueued(stream, cudaStreamLegacy);
      KC_CUDA_TRY(cudaMemcpyAsync(taken.output.data(), output, pass.grid * sizeof(float), cudaMemcpyDeviceToDevice, stream));
      checker.snapshots.push_back(std::move(taken));
    } catch (const device_memory_exhausted&) {
      throw;
    } catch (const cuda_error& e) {
      checker.problem = "pass " + std::to_string(index + 1) + ": taking a snapshot of its output failed: " + e.what();
    }
  }

  // After the launch's synchronisation: each pass's snapshot against the reference, in pass order;
  // the first that differs is the problem.
  void compare_snapshots() {
    if (!problem.empty()) return;
    std::vector<float> previous;  // expected output of the last pass checked (exact integers)
    for (const snapshot& s : snapshots) {
      // The first pass reads the input (its block sums shared with check_one_pass); a later one the
      // previous pass's expected output.
      std::shared_ptr<const std::vector<reference::block_sum>> first;
      std::vector<reference::block_sum> later;
      if (s.index == 0) first = input->first_pass_reference(s.pass.chunk_elements, s.pass.grid);
      else later = reference::reduce_pass(previous, s.pass.chunk_elements, s.pass.grid);
      const std::vector<reference::block_sum>& blocks = s.index == 0 ? *first : later;
      std::vector<double> expected(blocks.size());
      for (std::size_t b = 0; b < blocks.size(); ++b) expected[b] = blocks[b].sum;
      const std::vector<float> actual = s.output.download();
      const comparison result = compare_exact(expected, actual);
      if (!result.ok()) {
        std::ostringstream out;
        out << "pass " << s.index + 1 << " (" << s.pass.n << " -> " << s.pass.grid << " x " << s.pass.block
            << "): " << result.describe("partial");
        problem = out.str();
        return;
      }
      previous.assign(expected.begin(), expected.end());
    }
  }
};

}  // namespace

check_result check_one_pass(const reduction_case& c, const prepared_input& input) {
  const variant& v = *c.v;
  const device_limits& limits = device_limits::of_current_device();
  if (const launch_status status = validate_pass(v, c.n, c.config, limits); !status)
    return check_result::refuse(status.message() + "\n  case: " + describe_case(c, input, ""));
  const pass_geometry geometry = plan_pass(v, c.n, c.config, limits);
  const std::string context = describe_case(c, input, " (grid " + std::to_string(geometry.grid) + ")");
  const std::shared_ptr<const std::vector<reference::block_sum>> reference_sums =
      input.first_pass_reference(geometry.chunk_elements, geometry.grid);
  const std::vector<reference::block_sum>& expected = *reference_sums;

  guarded_device_buffer<float> in(c.n), out(geometry.grid);
  in.poison();
  out.poison(guard_role::write_only);
  const cuda_stream stream;
  enqueue_behind_delay(in.data(), input.pristine.data(), c.n * sizeof(float), stream.get());
  if (const launch_status status = launch_pass(v, in.data(), c.n, out.data(), c.config, stream.get()); !status) {
    (void)cudaDeviceSynchronize();
    return check_result::not_launched(status.what() == launch_status::kind::refused, status.message() + "\n  case: " + context);
  }
  launch_aftermath after;  // both guards and the input against its pristine copy: one read-back
  after.guards(out, "partial sums").guards(in, "input");
  if (!v.pass.destroys_input) after.unchanged(in.data(), input.pristine.data(), c.n * sizeof(float));
  after.queue(stream.get());  // behind the launch, read back within its wait
  if (auto problem = fault_after_sync(stream.get())) return check_result::fail(*problem + "\n  case: " + context);
  after.read();
  if (const auto problem = after.guard_problem()) return check_result::fail(*problem + "\n  case: " + context);
  if (const auto problem = after.input_problem())
    return check_result::fail(*problem + ", though " + std::string(v.name) +
                              "'s registry row says the input is preserved (destroys_input = false)\n  case: " + context);

  const std::vector<float> actual = out.download();
  std::vector<double> sums(expected.size()), tolerances(expected.size());
  const std::size_t depth = geometry.summation_depth();
  for (std::size_t b = 0; b < expected.size(); ++b) {
    sums[b] = expected[b].sum;
    tolerances[b] = tolerance_for(depth, expected[b].abs_sum, input.host);
  }
  const comparison result = compare_within(sums, actual, tolerances);
  if (!result.ok())
    return check_result::fail("one pass: " + result.describe("block") + "\n  case: " + context + dump(c, context, input, sums, actual));
  return check_result::pass();
}

check_result check_full_reduction(const reduction_case& c, const prepared_input& input,
                                  std::optional<std::size_t>* input_words_changed) {
  const variant& v = *c.v;
  const std::string context = describe_case(c, input, "");
  const std::size_t scratch_size = std::max<std::size_t>(1, scratch_elements(v, c.n, c.config));
  guarded_device_buffer<float> a(c.n), scratch(scratch_size);
  a.poison();
  scratch.poison();
  const cuda_stream stream;
  enqueue_behind_delay(a.data(), input.pristine.data(), c.n * sizeof(float), stream.get());
  pass_checker checker{&input};
  const pass_observer observer{&pass_checker::after_pass, &checker};
  const bool check_passes = input.host.exact() && v.has_pass();
  const reduce_outcome outcome =
      reduce(v, a.data(), c.n, scratch.data(), scratch_size, c.config, stream.get(), check_passes ? &observer : nullptr);
  if (!outcome.status) {
    (void)cudaDeviceSynchronize();
    return check_result::not_launched(outcome.status.what() == launch_status::kind::refused,
                                      outcome.status.message() + "\n  case: " + context);
  }
  launch_aftermath after;  // both guards and (if asked) the input against its pristine copy: one read-back
  after.guards(a, "buffer A (input)").guards(scratch, "buffer B (scratch)");
  if (input_words_changed != nullptr) after.unchanged(a.data(), input.pristine.data(), c.n * sizeof(float));
  after.queue(stream.get());  // behind the launch, read back within its wait
  if (auto problem = fault_after_sync(stream.get())) return check_result::fail(*problem + "\n  case: " + context);
  after.read();
  if (input_words_changed != nullptr) *input_words_changed = after.differing_words(0);
  if (const auto problem = after.guard_problem()) return check_result::fail(*problem + "\n  case: " + context);
  checker.compare_snapshots();
  if (!checker.problem.empty()) return check_result::fail(checker.problem + "\n  case: " + context);
  if (check_passes && v.reduce == nullptr && checker.observed != outcome.plan.passes.size())
    return check_result::fail("the driver reported " + std::to_string(checker.observed) + " of its " +
                              std::to_string(outcome.plan.passes.size()) + " passes\n  case: " + context);

  float actual = 0.0f;
  if (const cudaError_t error = cudaMemcpy(&actual, outcome.result, sizeof(float), cudaMemcpyDeviceToHost); error != cudaSuccess)
    return check_result::fail(std::string("reading the result failed: ") + cudaGetErrorName(error) + "\n  case: " + context);

  const std::size_t depth = v.has_pass()                ? outcome.plan.summation_depth()
                            : v.library_depth != nullptr ? v.library_depth(c.n)
                                                         : library_summation_depth(c.n);
  const double tolerance = tolerance_for(depth, input.abs_total, input.host);
  const comparison result = compare_within(std::span(&input.total, 1), std::span(&actual, 1), std::span(&tolerance, 1));
  if (!result.ok()) {
    std::ostringstream plan;
    for (const pass_geometry& pass : outcome.plan.passes) plan << ' ' << pass.n << "->" << pass.grid << 'x' << pass.block;
    std::ostringstream message;
    message << "total: " << result.describe("sum") << "\n  passes (n->grid x block):"
            << (plan.str().empty() ? std::string(" library") : plan.str()) << ", result read from "
            << (outcome.result == a.data() ? "A" : "B") << "\n  case: " << context
            << dump(c, context, input, std::span(&input.total, 1), std::span(&actual, 1));
    return check_result::fail(message.str());
  }
  return check_result::pass();
}

}  // namespace kc::reduction::testing
