// The performance case every grading program has: one case (unit "performance") that times the
// submission against the family's reference variant in the same process, interleaved
// (kc::perf::measure_interleaved: drift falls on both), and records what tools/grade_report scores:
// the ratio of medians, both medians, the reference's name and the size.
#pragma once

#include "fixtures/cuda_check.hpp"
#include "fixtures/measurement.hpp"
#include "fixtures/suite_case.hpp"

#include <gtest/gtest.h>

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
  ::testing::Test::RecordProperty("group", "performance");
  ::testing::Test::RecordProperty("case", what);
  ::testing::Test::RecordProperty("work", std::to_string(static_cast<long long>(work)));
  ::testing::Test::RecordProperty("reference_variant", std::string(reference_variant));
  ::testing::Test::RecordProperty("size", size);
}

// Times both works (10 interleaved rounds) and records the ratio submission / reference.
inline void time_against_reference(const perf::timed_work& submission, const perf::timed_work& reference,
                                   cudaStream_t stream, const std::string& what) {
  const std::vector<perf::interleaved_timing> timings = perf::measure_interleaved({submission, reference}, stream, 10);
  KC_CUDA_TRY(cudaStreamSynchronize(stream));
  const double ratio = timings[0].median_us / timings[1].median_us;
  ::testing::Test::RecordProperty("submission_ms", std::to_string(timings[0].median_us / 1000));
  ::testing::Test::RecordProperty("reference_ms", std::to_string(timings[1].median_us / 1000));
  ::testing::Test::RecordProperty("ratio", std::to_string(ratio));
  std::cout << what << ": submission " << timings[0].median_us << " us, reference " << timings[1].median_us
            << " us, ratio " << ratio << '\n';
}

}  // namespace kc::grading
