#include "grading/judged_timing.hpp"

#include "fixtures/cuda_check.hpp"
#include "fixtures/device_buffer.hpp"
#include "grading/executor/remote_submission.hpp"
#include "grading/snapshot_rule.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
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

// One side of the comparison: its work, its snapshot buffers, its samples.
struct side {
  const graded_work* work = nullptr;
  std::vector<std::unique_ptr<device_buffer<unsigned char>>> snapshots;
  std::vector<double> region_us;
  std::vector<double> calls;

  explicit side(const graded_work& w) : work(&w) {
    for (const timed_output& o : w.outputs) snapshots.push_back(std::make_unique<device_buffer<unsigned char>>(o.bytes));
  }

  void poison_and_prepare(cudaStream_t s) const {
    if (work->work.prepare) work->work.prepare(s);
    for (const timed_output& o : work->outputs) KC_CUDA_TRY(cudaMemsetAsync(o.data, o.fill, o.bytes, s));
  }

  void sample(cudaStream_t s, l2_cleaner& l2, region_clock& clock) {
    poison_and_prepare(s);
    l2.clean(s);
    const std::uint64_t before = remote::calls_made();
    clock.start(s);
    work->work.run(s);
    for (std::size_t i = 0; i < work->outputs.size(); ++i)
      KC_CUDA_TRY(cudaMemcpyAsync(snapshots[i]->data(), work->outputs[i].data, work->outputs[i].bytes,
                                  cudaMemcpyDeviceToDevice, s));
    region_us.push_back(clock.stop_us(s));
    calls.push_back(static_cast<double>(remote::calls_made() - before));
  }

  // What an untimed call writes: poisoned, prepared, called, waited for, read back.
  std::vector<std::vector<unsigned char>> untimed_outputs(cudaStream_t s) const {
    poison_and_prepare(s);
    work->work.run(s);
    KC_CUDA_TRY(cudaStreamSynchronize(s));
    std::vector<std::vector<unsigned char>> out;
    for (const timed_output& o : work->outputs) {
      out.emplace_back(o.bytes);
      KC_CUDA_TRY(cudaMemcpy(out.back().data(), o.data, o.bytes, cudaMemcpyDeviceToHost));
    }
    return out;
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

judged_timing judge_timing(const graded_work& submission, const graded_work& reference, cudaStream_t stream, int samples) {
  judged_timing out;
  l2_cleaner l2;
  region_clock clock;
  side sub(submission), ref(reference);
  // What the submission writes untimed, twice (the second shows whether it is deterministic).
  const auto first = sub.untimed_outputs(stream);
  const auto second = sub.untimed_outputs(stream);
  // The two untimed answers must agree within rounding too (the second is the first's check).
  for (std::size_t o = 0; o < submission.outputs.size() && out.evaded.empty(); ++o)
    if (const std::string problem = check_snapshot(submission, o, second[o], first[o], first[o]); !problem.empty())
      out.evaded = "two untimed calls on the same inputs disagreed beyond rounding: " + problem;
  if (!out.evaded.empty()) return out;
  // The echo sample makes as many calls as a submission sample does (a pass driver calls once per
  // pass; a size query counts too): what crossing into another process costs is not the same for
  // each call of a row (the first switches the GPU to the other context), so it is measured as the
  // submission's samples pay it, not per call.
  std::vector<double> echo_us;
  int echo_calls = 1;
  const auto echo_sample = [&] {
    l2.clean(stream);
    clock.start(stream);
    for (int c = 0; c < echo_calls; ++c) remote::echo_call();
    echo_us.push_back(clock.stop_us(stream));
  };
  // Warm-up: clocks up, modules loaded, both executors' first calls made.
  for (int i = 0; i < 2; ++i) {
    sub.sample(stream, l2, clock);
    ref.sample(stream, l2, clock);
    echo_sample();
  }
  echo_calls = std::max(1, static_cast<int>(std::lround(median(sub.calls))));
  sub.region_us.clear();
  sub.calls.clear();
  ref.region_us.clear();
  echo_us.clear();
  for (int i = 0; i < samples && out.evaded.empty(); ++i) {
    sub.sample(stream, l2, clock);
    for (std::size_t o = 0; o < submission.outputs.size() && out.evaded.empty(); ++o) {
      std::vector<unsigned char> got(submission.outputs[o].bytes);
      KC_CUDA_TRY(cudaMemcpy(got.data(), sub.snapshots[o]->data(), got.size(), cudaMemcpyDeviceToHost));
      const std::string problem = check_snapshot(submission, o, got, first[o], second[o]);
      if (!problem.empty())
        out.evaded = "in timed sample " + std::to_string(i + 1) + " the call returned before its output was complete: " + problem;
    }
    ref.sample(stream, l2, clock);
    echo_sample();
  }
  out.samples = static_cast<int>(sub.region_us.size());
  out.submission_region_us = median(sub.region_us);
  out.call_cost_us = median(echo_us);
  out.calls_per_sample = median(sub.calls);
  // The submission's own time: its region less what as many calls cost by themselves (the echo
  // region). Where that leaves less than a twentieth of the region the subtraction measured noise,
  // not work: no ratio (record_scored_ratio fails the case), never a flattering one from a floor.
  const double own = out.submission_region_us - out.call_cost_us;
  out.ratio = {own >= 0.05 * out.submission_region_us ? own : 0.0, median(ref.region_us)};
  return out;
}

}  // namespace kc::grading
