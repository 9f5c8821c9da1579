// The performance case every grading program has: one case (unit "performance") that times the
// submission against the family's reference variant, interleaved, on the judge's side of the trust
// boundary (grading/judged_timing.hpp: the judge's own events around each region, the submission's
// calls replayed many times per region on distinct buffer sets, every set's outputs copied inside the
// region and checked against an untimed call, an exchange's own cost measured on a trusted executor
// and subtracted), and records what tools/grade_report scores: the ratio of medians, both medians,
// the reference's name and the size.
//
// Timing repeats the same calls on the same contents (at a few addresses), so a launcher that
// remembers its answers by (pointers, shape) and replays them would be timed as a copy. After timing, every performance
// case therefore gives the timed input buffers new contents at the same addresses, runs the
// submission once more into a poisoned output and compares it exactly with the right answer for the
// new contents (matmul: the reference variant's product; reduction: the host total): a submission
// whose answer depends on earlier calls fails the case and earns no performance points (issue 19).
#pragma once

#include "fixtures/cuda_check.hpp"
#include "fixtures/measurement.hpp"
#include "fixtures/suite_case.hpp"
#include "grading/graded_case.hpp"
#include "grading/judged_timing.hpp"
#include "grading/timed_ratio.hpp"
#include "kernels/launch.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace kc::grading {

struct performance_point {
  std::string name() const { return "Submission"; }
  std::string unit() const { return "performance"; }
  double cost() const { return 100; }
};
inline void PrintTo(const performance_point& p, std::ostream* os) { print_case(p, os); }

// One point when there is a submission, none otherwise.
inline std::vector<performance_point> performance_points(bool has_submission) {
  return has_submission ? std::vector<performance_point>{{}} : std::vector<performance_point>{};
}

// What the case times, for the report: "n = 16777216 -> 1, the submission at block 256, ...".
inline void record_performance_case(const std::string& what, double work, std::string_view reference_variant,
                                    const std::string& size) {
  record_and_check_seed();
  ::testing::Test::RecordProperty("group", "performance");
  ::testing::Test::RecordProperty("case", what);
  ::testing::Test::RecordProperty("work", std::to_string(static_cast<long long>(work)));
  ::testing::Test::RecordProperty("reference_variant", std::string(reference_variant));
  ::testing::Test::RecordProperty("size", size);
}

// Records what tools/grade_report scores: the ratio and the two medians behind it.
inline void record_scored_ratio(const timed_ratio& scored) {
  if (!scored.valid())
    ADD_FAILURE() << "the timing measured no work (submission median " << scored.submission_us << " us, reference "
                  << scored.reference_us << " us): no ratio to score";
  ::testing::Test::RecordProperty("submission_ms", std::to_string(scored.submission_us / 1000));
  ::testing::Test::RecordProperty("reference_ms", std::to_string(scored.reference_us / 1000));
  ::testing::Test::RecordProperty("ratio", std::to_string(scored.ratio()));
}

// Records how the judge timed it: the region before the subtraction, a call's own cost, calls per sample.
inline void record_timing_method(const judged_timing& t, const std::string& suffix = "") {
  ::testing::Test::RecordProperty("submission_region_ms" + suffix, std::to_string(t.submission_region_us / 1000));
  ::testing::Test::RecordProperty("call_cost_ms" + suffix, std::to_string(t.call_cost_us / 1000));
  ::testing::Test::RecordProperty("calls_per_sample" + suffix, std::to_string(t.calls_per_sample));
  ::testing::Test::RecordProperty("replayed" + suffix, std::to_string(t.repeat));
}

// False, with the case failed saying why, when the timing scored nothing: a timed call's output was
// not complete when it returned (timing evaded), or a replay was refused or failed on the device.
inline bool timing_succeeded(const judged_timing& t) {
  if (!t.evaded.empty()) {
    ADD_FAILURE() << timing_evaded_message(t.evaded);
    return false;
  }
  if (!t.failed.empty()) {
    ADD_FAILURE() << "the timing could not run the submission's calls as it timed them: " << t.failed
                  << ". Performance is not scored.";
    return false;
  }
  return true;
}

// Times both works (judge_timing) and records the ratio submission / reference; a sample whose
// outputs were not complete when the call returned fails the case instead.
inline void time_against_reference(const graded_work& submission, const graded_work& reference, cudaStream_t stream,
                                   const std::string& what) {
  const judged_timing t = judge_timing(submission, reference, stream);
  record_timing_method(t);
  if (!timing_succeeded(t)) return;
  record_scored_ratio(t.ratio);
  std::cout << what << ": submission " << t.ratio.submission_us << " us a call (region " << t.submission_region_us
            << " us for " << t.repeat << " replays, " << t.calls_per_sample << " call(s); an exchange costs "
            << t.call_cost_us << " us by itself), reference " << t.ratio.reference_us << " us, ratio "
            << t.ratio.ratio() << '\n';
}

// Runs `call` (the submission's launch on `stream`) as the timing runs it: one direct call, waited
// for. Every fresh-contents check calls the submission through this.
inline launch_status run_as_timed(const std::function<launch_status(cudaStream_t)>& call, cudaStream_t stream) {
  const launch_status status = call(stream);
  KC_CUDA_TRY(cudaStreamSynchronize(stream));
  return status;
}

// The message every family's fresh-contents check fails with (tools/grade_report classifies a
// failure that says "depends on earlier calls" as cached_answers).
inline std::string earlier_calls_message(const std::string& what_differs) {
  return "the answer depends on earlier calls: after the timing, the timed inputs were given new contents at the "
         "same addresses and the output was poisoned, and the submission's answer then " +
         what_differs +
         ". A launcher must compute from the inputs it is given on every call (no answers remembered by pointer or "
         "shape); performance is not scored.";
}

}  // namespace kc::grading
