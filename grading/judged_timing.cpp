#include "grading/judged_timing.hpp"

#include "fixtures/cuda_check.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/device_bytes_equal.hpp"
#include "grading/executor/remote_submission.hpp"
#include "grading/snapshot_rule.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>

namespace kc::grading {
namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// What the L2 holds before a sample is nothing of the work's: persisting lines reset and the
// set-aside cleared (a submission's process can set both; NVBench and pygpubench reset them too),
// then twice the L2's size written, which evicts the ordinary lines.
class l2_cleaner {
 public:
  l2_cleaner() {
    int device = 0, l2 = 0;
    KC_CUDA_TRY(cudaGetDevice(&device));
    KC_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    bytes_ = std::max<std::size_t>(2 * static_cast<std::size_t>(l2), 1 << 20);
    buffer_ = std::make_unique<device_buffer<unsigned char>>(bytes_);
  }
  void clean(cudaStream_t stream) {
    (void)cudaCtxResetPersistingL2Cache();
    (void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    (void)cudaGetLastError();  // a device without persisting L2 refuses both: nothing to reset there
    KC_CUDA_TRY(cudaMemsetAsync(buffer_->data(), ++value_, bytes_, stream));
  }

 private:
  std::size_t bytes_ = 0;
  std::unique_ptr<device_buffer<unsigned char>> buffer_;
  unsigned char value_ = 0;
};

class region_clock {
 public:
  region_clock() {
    KC_CUDA_TRY(cudaEventCreate(&start_));
    KC_CUDA_TRY(cudaEventCreate(&stop_));
  }
  ~region_clock() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  region_clock(const region_clock&) = delete;
  region_clock& operator=(const region_clock&) = delete;
  void start(cudaStream_t s) { KC_CUDA_TRY(cudaEventRecord(start_, s)); }
  double stop_us(cudaStream_t s) {
    KC_CUDA_TRY(cudaEventRecord(stop_, s));
    KC_CUDA_TRY(cudaEventSynchronize(stop_));
    float ms = 0;
    KC_CUDA_TRY(cudaEventElapsedTime(&ms, start_, stop_));
    return 1000.0 * ms;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Before every call of a work, timed or not: what it destroys restored, its outputs poisoned.
void poison_and_prepare(const graded_work& w, cudaStream_t s) {
  if (w.work.prepare) w.work.prepare(s);
  for (const timed_output& o : w.outputs) KC_CUDA_TRY(cudaMemsetAsync(o.data, o.fill, o.bytes, s));
}

// What an untimed call writes: poisoned, prepared, called, waited for, read back.
std::vector<std::vector<unsigned char>> untimed_outputs(const graded_work& w, cudaStream_t s) {
  poison_and_prepare(w, s);
  w.work.run(s);
  KC_CUDA_TRY(cudaStreamSynchronize(s));
  std::vector<std::vector<unsigned char>> out;
  for (const timed_output& o : w.outputs) {
    out.emplace_back(o.bytes);
    KC_CUDA_TRY(cudaMemcpy(out.back().data(), o.data, o.bytes, cudaMemcpyDeviceToHost));
  }
  return out;
}

// The reference's side, timed in the judge one call per sample: its snapshot buffers, its samples.
struct reference_side {
  const graded_work* work = nullptr;
  std::vector<std::unique_ptr<device_buffer<unsigned char>>> snapshots;
  std::vector<double> region_us;

  explicit reference_side(const graded_work& w) : work(&w) {
    for (const timed_output& o : w.outputs) snapshots.push_back(std::make_unique<device_buffer<unsigned char>>(o.bytes));
  }

  void sample(cudaStream_t s, l2_cleaner& l2, region_clock& clock) {
    poison_and_prepare(*work, s);
    l2.clean(s);
    clock.start(s);
    work->work.run(s);
    for (std::size_t i = 0; i < work->outputs.size(); ++i)
      KC_CUDA_TRY(cudaMemcpyAsync(snapshots[i]->data(), work->outputs[i].data, work->outputs[i].bytes,
                                  cudaMemcpyDeviceToDevice, s));
    region_us.push_back(clock.stop_us(s));
  }
};

// The submission's side: its calls recorded once (an untimed run through the proxies), then made
// `repeat` times per sample in one exchange (remote::replay), the k-th time on the k-th buffer set:
// set 0 is the work's own buffers, sets 1.. are the judge's copies of every allocation the calls were
// handed, made afresh before each sample from set 0 as its prepare and poison left it. Every set's
// outputs are copied into snapshots of their own inside the region, and each must hold what untimed
// calls write. Distinct sets keep what one call leaves in L2 from serving the next, and let no output
// be one an earlier call wrote.
struct replayed_side {
  const graded_work* work = nullptr;
  std::vector<remote::allocation> recorded;
  std::vector<std::vector<std::unique_ptr<device_buffer<unsigned char>>>> clones;  // [set - 1][allocation]
  std::vector<std::vector<void*>> sets;                                            // the same, as pointers
  std::vector<std::vector<std::unique_ptr<device_buffer<unsigned char>>>> snapshots;  // [set][output]
  std::vector<std::vector<void*>> output_at;  // [set][output]: where set k's copy of the output is (null: none)
  remote::prepared_replay request;             // built once: no handle lookups inside the regions
  std::vector<double> region_us;
  std::string failed;  // a replay that was refused or failed on the device

  replayed_side(const graded_work& w, std::vector<remote::allocation> calls_were_handed, int repeat)
      : work(&w), recorded(std::move(calls_were_handed)) {
    for (int k = 1; k < repeat; ++k) {
      clones.emplace_back();
      sets.emplace_back();
      for (const remote::allocation& a : recorded) {
        clones.back().push_back(std::make_unique<device_buffer<unsigned char>>(std::max<std::size_t>(a.bytes, 1)));
        sets.back().push_back(clones.back().back()->data());
      }
    }
    for (int k = 0; k < repeat; ++k) {
      snapshots.emplace_back();
      output_at.emplace_back();
      for (const timed_output& o : w.outputs) {
        output_at.back().push_back(k == 0 ? o.data : in_set(o.data, k));
        snapshots.back().push_back(output_at.back().back() == nullptr
                                       ? nullptr
                                       : std::make_unique<device_buffer<unsigned char>>(o.bytes));
      }
    }
    request = remote::prepare_replay(recorded, sets);
  }

  // Set k's counterpart of a set-0 address; null when no recorded allocation holds it.
  void* in_set(const void* p, int k) const {
    const auto* at = static_cast<const unsigned char*>(p);
    for (std::size_t b = 0; b < recorded.size(); ++b) {
      const auto* base = static_cast<const unsigned char*>(recorded[b].base);
      if (at >= base && at < base + recorded[b].bytes) return static_cast<unsigned char*>(sets[k - 1][b]) + (at - base);
    }
    return nullptr;
  }

  void sample(cudaStream_t s, l2_cleaner& l2, region_clock& clock) {
    poison_and_prepare(*work, s);
    for (std::size_t k = 0; k < sets.size(); ++k)
      for (std::size_t b = 0; b < recorded.size(); ++b)
        KC_CUDA_TRY(cudaMemcpyAsync(sets[k][b], recorded[b].base, recorded[b].bytes, cudaMemcpyDeviceToDevice, s));
    l2.clean(s);
    clock.start(s);
    const wire::reply r = remote::replay(request);
    for (std::size_t k = 0; k < snapshots.size(); ++k)
      for (std::size_t o = 0; o < work->outputs.size(); ++o)
        if (output_at[k][o] != nullptr)
          KC_CUDA_TRY(cudaMemcpyAsync(snapshots[k][o]->data(), output_at[k][o], work->outputs[o].bytes,
                                      cudaMemcpyDeviceToDevice, s));
    region_us.push_back(clock.stop_us(s));
    if (failed.empty() && !r.made) failed = "a replay of the timed calls could not be made: " + r.problem;
    if (failed.empty() && r.refused) failed = "a replayed call was refused: " + r.refusal;
    if (failed.empty() && (r.launch_error != 0 || r.sync_error != 0))
      failed = std::string("a replayed call failed: ") +
               cudaGetErrorName(static_cast<cudaError_t>(r.launch_error != 0 ? r.launch_error : r.sync_error));
  }
};

// "" when the snapshot holds what untimed calls write; else which output and element differs.
std::string check_snapshot(const graded_work& w, std::size_t output, const std::vector<unsigned char>& got,
                           const std::vector<unsigned char>& first, const std::vector<unsigned char>& second) {
  if (got == first && got == second) return "";
  const timed_output& o = w.outputs[output];
  const std::size_t element = first_outside_rounding(o.element_bytes, got.data(), first.data(), second.data(), o.bytes);
  if (element * o.element_bytes >= o.bytes) return "";
  std::ostringstream text;
  text << "output " << output + 1 << " of " << w.outputs.size() << ", element " << element << " of "
       << o.bytes / o.element_bytes << " is not, within rounding, what untimed calls on the same inputs wrote";
  return text.str();
}

}  // namespace

std::string timing_evaded_message(const std::string& what) {
  return "timing evaded: " + what +
         ". A timed call's outputs are copied before its timed region ends and must be what an untimed call on the "
         "same inputs writes; work left running after the call returns (on another stream, or launched later by a "
         "thread) is not finished there, so it is not accepted. Performance is not scored.";
}

// How many times a sample replays the submission's calls: enough that its calls fill ~5 ms at the
// reference's speed, so the exchange (~0.4 ms on the H100 box, with its noise) is paid once for many
// calls; no more than ~5 ms at the submission's own speed as its untimed run showed it (wall clock,
// less an echo exchange's), so a slow submission's samples stay well within the case's deadline;
// at most 64, and no more buffer sets than a quarter of the free device memory or 1 GiB holds.
int replay_count(double reference_us, double submission_run_us, std::size_t bytes_per_set) {
  constexpr double target_us = 5000;
  std::size_t free_bytes = 0, total_bytes = 0;
  KC_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t budget = std::min<std::size_t>(free_bytes / 4, std::size_t{1} << 30);
  const double by_time = std::ceil(target_us / std::max({reference_us, submission_run_us, 1.0}));
  const double by_memory = 1.0 + static_cast<double>(budget / std::max<std::size_t>(bytes_per_set, 1));
  return static_cast<int>(std::clamp(std::min(by_time, by_memory), 1.0, 64.0));
}

judged_timing judge_timing(const graded_work& submission, const graded_work& reference, cudaStream_t stream, int samples) {
  judged_timing out;
  l2_cleaner l2;
  region_clock clock;
  reference_side ref(reference);
  // What the submission writes untimed, twice (the second shows whether it is deterministic).
  const auto first = untimed_outputs(submission, stream);
  const auto second = untimed_outputs(submission, stream);
  // The two untimed answers must agree within rounding too (the second is the first's check).
  for (std::size_t o = 0; o < submission.outputs.size() && out.evaded.empty(); ++o)
    if (const std::string problem = check_snapshot(submission, o, second[o], first[o], first[o]); !problem.empty())
      out.evaded = "two untimed calls on the same inputs disagreed beyond rounding: " + problem;
  if (!out.evaded.empty()) return out;
  // The calls a sample makes, recorded in an untimed run (a pass driver's several calls, a size query),
  // timed on the host less what as many exchanges with the echo executor take there: an estimate of the
  // submission's own time that sets how many calls a sample may replay (replay_count). The echo's first
  // exchange starts its executor, so the second is the one timed.
  const auto wall_us = [](const std::function<void()>& work) {
    const auto started = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
  };
  remote::echo_call();
  const double echo_wall_us = wall_us([] { remote::echo_call(); });
  poison_and_prepare(submission, stream);
  KC_CUDA_TRY(cudaStreamSynchronize(stream));
  remote::start_recording();
  const std::uint64_t calls_before = remote::calls_made();
  const double run_wall_us = wall_us([&] {
    submission.work.run(stream);
    KC_CUDA_TRY(cudaStreamSynchronize(stream));
  });
  const std::vector<remote::allocation> handed = remote::stop_recording();
  const auto calls_per_run = static_cast<double>(remote::calls_made() - calls_before);
  // Each call of the run is an exchange (a pass driver makes several).
  const double submission_run_us = std::max(run_wall_us - calls_per_run * echo_wall_us, 0.0);
  std::size_t bytes_per_set = 0;
  for (const remote::allocation& a : handed) bytes_per_set += a.bytes;
  for (const timed_output& o : submission.outputs) bytes_per_set += o.bytes;  // each set's snapshots
  // The reference's speed (and the submission's, where slower) sets how many calls a sample replays.
  for (int i = 0; i < 2; ++i) ref.sample(stream, l2, clock);
  const int repeat = replay_count(median(ref.region_us), submission_run_us, bytes_per_set);
  replayed_side replayed(submission, handed, repeat);
  std::vector<double> echo_us;
  const auto echo_sample = [&] {
    l2.clean(stream);
    clock.start(stream);
    remote::echo_call();
    echo_us.push_back(clock.stop_us(stream));
  };
  // Warm-up: clocks up, modules loaded, every buffer set mapped by the executor, both executors' first
  // exchanges made.
  for (int i = 0; i < 2; ++i) {
    replayed.sample(stream, l2, clock);
    ref.sample(stream, l2, clock);
    echo_sample();
  }
  replayed.region_us.clear();
  ref.region_us.clear();
  echo_us.clear();
  std::vector<std::vector<unsigned char>> got;  // one host copy per output, reused by every set and sample
  for (const timed_output& o : submission.outputs) got.emplace_back(o.bytes);
  // Where both untimed answers are the same bytes, a snapshot equal to them holds (check_snapshot's
  // first clause): that is decided on the device against a copy of them (fixtures/device_bytes_equal.hpp), and
  // only a snapshot that differs is read back and judged element by element on the host, as before.
  device_byte_comparison on_device;
  std::vector<std::unique_ptr<device_buffer<unsigned char>>> untimed_on_device;  // null: no fast path
  for (std::size_t o = 0; o < submission.outputs.size(); ++o) {
    untimed_on_device.emplace_back();
    if (first[o] != second[o] || first[o].empty()) continue;
    untimed_on_device.back() = std::make_unique<device_buffer<unsigned char>>(first[o].size());
    KC_CUDA_TRY(cudaMemcpyAsync(untimed_on_device.back()->data(), first[o].data(), first[o].size(),
                                cudaMemcpyHostToDevice, stream));
  }
  KC_CUDA_TRY(cudaStreamSynchronize(stream));  // on the device before any comparison, whatever runs between
  for (int i = 0; i < samples && out.evaded.empty() && replayed.failed.empty(); ++i) {
    replayed.sample(stream, l2, clock);
    for (std::size_t k = 0; k < replayed.snapshots.size() && out.evaded.empty(); ++k)
      for (std::size_t o = 0; o < submission.outputs.size() && out.evaded.empty(); ++o) {
        if (replayed.snapshots[k][o] == nullptr) continue;
        if (untimed_on_device[o] != nullptr &&
            on_device.equal(replayed.snapshots[k][o]->data(), untimed_on_device[o]->data(), got[o].size(), stream))
          continue;
        KC_CUDA_TRY(cudaMemcpy(got[o].data(), replayed.snapshots[k][o]->data(), got[o].size(), cudaMemcpyDeviceToHost));
        const std::string problem = check_snapshot(submission, o, got[o], first[o], second[o]);
        if (!problem.empty())
          out.evaded = "in timed sample " + std::to_string(i + 1) + ", call " + std::to_string(k + 1) + " of " +
                       std::to_string(repeat) + ", the call returned before its output was complete: " + problem;
      }
    ref.sample(stream, l2, clock);
    echo_sample();
  }
  out.failed = replayed.failed;
  out.samples = static_cast<int>(replayed.region_us.size());
  out.repeat = repeat;
  out.submission_region_us = median(replayed.region_us);
  out.call_cost_us = median(echo_us);
  out.calls_per_sample = calls_per_run * repeat;
  // The submission's own time per call: its region less what an exchange costs by itself (the echo
  // region), over the calls replayed. Where that leaves less than a twentieth of the region the
  // subtraction measured noise, not work: no ratio (record_scored_ratio fails the case), never a
  // flattering one from a floor.
  const double own = out.submission_region_us - out.call_cost_us;
  out.ratio = {own >= 0.05 * out.submission_region_us ? own / repeat : 0.0, median(ref.region_us)};
  return out;
}

}  // namespace kc::grading
