#include "tools/perf_report/log_time_axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kc::perf_report {

namespace {

// Room beyond the extreme times, as a factor: keeps a marker at the edge off the frame.
constexpr double domain_margin = 1.15;
// Past this many decades only the decades are labelled, so the domain's ends are rounded to decades.
constexpr double max_decades_labelling_2_and_5 = 2.5;

// The largest step × 10^k at or below t (floor) / the smallest at or above it (ceil), for the steps
// {1, 2, 5} or {1}.
double nice_floor(double t, bool decades_only) {
  const double decade = std::pow(10.0, std::floor(std::log10(t)));
  double best = decade;
  for (double step : {2.0, 5.0})
    if (!decades_only && step * decade <= t * (1 + 1e-9)) best = step * decade;
  return best;
}

double nice_ceil(double t, bool decades_only) {
  const double decade = std::pow(10.0, std::floor(std::log10(t)));
  if (t <= decade * (1 + 1e-9)) return decade;
  for (double step : {2.0, 5.0})
    if (!decades_only && step * decade >= t * (1 - 1e-9)) return step * decade;
  return 10.0 * decade;
}

}  // namespace

log_time_axis::log_time_axis(const std::vector<double>& times_us, double left_px, double right_px)
    : left_px_(left_px), right_px_(right_px) {
  double low = 0.0, high = 0.0;
  for (double t : times_us) {
    if (!(t > 0.0) || !std::isfinite(t)) continue;
    low = low > 0.0 ? std::min(low, t) : t;
    high = std::max(high, t);
  }
  if (low > 0.0) {
    low_us_ = nice_floor(low / domain_margin, false);
    high_us_ = nice_ceil(high * domain_margin, false);
    if (std::log10(high_us_ / low_us_) > max_decades_labelling_2_and_5) {
      low_us_ = nice_floor(low / domain_margin, true);
      high_us_ = nice_ceil(high * domain_margin, true);
    }
  }
}

double log_time_axis::x_of(double time_us) const {
  if (!(time_us > 0.0)) return left_px_;
  const double share = (std::log10(time_us) - std::log10(low_us_)) / (std::log10(high_us_) - std::log10(low_us_));
  return left_px_ + std::clamp(share, 0.0, 1.0) * (right_px_ - left_px_);
}

std::vector<axis_tick> log_time_axis::ticks() const {
  const double decades = std::log10(high_us_) - std::log10(low_us_);
  const bool label_2_and_5 = decades <= max_decades_labelling_2_and_5 * (1 + 1e-9);
  std::vector<axis_tick> ticks;
  for (double decade = std::pow(10.0, std::floor(std::log10(low_us_))); decade <= high_us_ * (1 + 1e-9); decade *= 10.0) {
    for (int m = 1; m <= 9; ++m) {
      const double t = m * decade;
      if (t < low_us_ * (1 - 1e-9) || t > high_us_ * (1 + 1e-9)) continue;
      const bool labelled = m == 1 || (label_2_and_5 && (m == 2 || m == 5));
      ticks.push_back({t, x_of(t), m == 1, labelled ? duration_label(t) : std::string()});
    }
  }
  return ticks;
}

std::string duration_label(double time_us) {
  const char* unit = "\u00b5s";
  double value = time_us;
  if (time_us < 1.0) {
    value = time_us * 1000.0, unit = "ns";
  } else if (time_us >= 1e6) {
    value = time_us / 1e6, unit = "s";
  } else if (time_us >= 1e3) {
    value = time_us / 1e3, unit = "ms";
  }
  char text[48];
  std::snprintf(text, sizeof text, "%g %s", value, unit);
  return text;
}

}  // namespace kc::perf_report
