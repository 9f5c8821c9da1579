// What a performance case scores (grading/graded_performance.hpp): the ratio of the submission's
// median to the reference's, and, for the families whose launcher takes `repeats` (access AC1,
// divergence DV1, the occupancy vector add: grading/access_row_performance.hpp), the rule that keeps
// an ignored `repeats` from paying. Host-only arithmetic: tests/grading tests it on any machine.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace kc::grading {

// One comparison's medians (µs): submission / reference is the ratio the rubric scores.
struct timed_ratio {
  double submission_us = 0.0;
  double reference_us = 0.0;
  double ratio() const { return submission_us / reference_us; }
  // Both medians positive and finite: a ratio can be scored (a zero median is no timing of any work).
  bool valid() const { return submission_us > 0 && reference_us > 0 && std::isfinite(submission_us) && std::isfinite(reference_us); }
};

// Both rows timed at the lab's `repeats` and at one repeat (same n, same blocks). Every repeat writes
// the same value, so no output shows a launcher that ignores `repeats` or a loop that does less work;
// scoring the worse (larger) ratio means skipping repeats gains nothing over the one-pass time.
struct repeats_timing {
  timed_ratio at_repeats;
  timed_ratio at_one;
  int repeats = 1;

  // An invalid half (a zero or non-finite median) is the scored one, so record_scored_ratio refuses it.
  bool one_is_worse() const { return !at_one.valid() || (at_repeats.valid() && at_one.ratio() > at_repeats.ratio()); }
  const timed_ratio& scored() const { return one_is_worse() ? at_one : at_repeats; }

  // Information, not a failure: the submission's time grew with repeats less than half as much as the
  // reference's (ratio at the repeats < half the ratio at one). A kernel whose compiler folds the
  // identical stores (__restrict__ lets it) does that without ignoring anything; the one-pass ratio
  // scores both fairly. "" when its time grows as the reference's does.
  std::string note() const {
    if (!at_repeats.valid() || !at_one.valid() || !(at_repeats.ratio() < 0.5 * at_one.ratio())) return "";
    const auto factor = [](double x) {  // "1.02x", "87.5x", "1000x"
      char text[32];
      std::snprintf(text, sizeof text, x >= 1000 ? "%.0fx" : "%.3gx", x);
      return std::string(text);
    };
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3g", at_one.ratio());
    return "repeats appears ignored: from 1 to " + std::to_string(repeats) + " repeats the submission's time grew " +
           factor(at_repeats.submission_us / at_one.submission_us) + ", the reference's " +
           factor(at_repeats.reference_us / at_one.reference_us) +
           " (each repeat must run the body again); scored on the worse ratio, " + ratio + " at one repeat";
  }
};

}  // namespace kc::grading
