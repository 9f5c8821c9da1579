// The chart's horizontal axis: time on a log scale. Perf points of one family span decades (n=1024
// takes microseconds, n=2^26 milliseconds), and a log axis shows a relative change — which is what
// the verdict judges — as the same width at every size.
#pragma once

#include <string>
#include <vector>

namespace kc::perf_report {

struct axis_tick {
  double time_us = 0.0;
  double x = 0.0;
  bool decade = false;  // 10^k: drawn stronger, always labelled
  std::string label;    // empty: a gridline only
};

class log_time_axis {
 public:
  // The times to show and the pixel span [left_px, right_px]. The domain is the times widened by a
  // margin and rounded out to 1, 2 or 5 × 10^k, so both ends carry a labelled tick. Non-positive
  // times are ignored (they have no place on a log axis); with none left the domain is 1–10 µs.
  log_time_axis(const std::vector<double>& times_us, double left_px, double right_px);

  double x_of(double time_us) const;  // clamped to the pixel span; non-positive times at the left
  double low_us() const { return low_us_; }
  double high_us() const { return high_us_; }
  // Gridlines at m × 10^k (m = 1..9) inside the domain. Labels at the decades, and at 2 and 5 too
  // when the domain spans few decades (otherwise labels would crowd).
  std::vector<axis_tick> ticks() const;

 private:
  double low_us_ = 1.0, high_us_ = 10.0;
  double left_px_ = 0.0, right_px_ = 1.0;
};

// A tick value as a duration: 0.5 → "500 ns", 10 → "10 µs", 2000 → "2 ms", 1e6 → "1 s".
std::string duration_label(double time_us);

}  // namespace kc::perf_report
