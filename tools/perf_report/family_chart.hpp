// One family's chart: an inline SVG with a row per perf point. Columns: the point's label; its times
// on a log axis shared by the family, as a bullet chart — the baseline drawn light (threshold band,
// q1–q3 bar, median tick) and the fresh measurement over it in the verdict's colour (q1–q3 bar,
// median dot, re-measure median as a hollow diamond); the same medians as a change against the
// baseline on a linear strip (a family spans decades, so on the time axis a 3% band is a couple of
// pixels wide, while on the strip it is the width the verdict is about); the verdict and change.
#pragma once

#include "fixtures/perf_verdict.hpp"

#include <string>
#include <vector>

namespace kc::perf_report {

// Every time a point's row draws (measurement, re-measure, baseline, threshold band ends): the
// times the axis must span.
std::vector<double> drawn_times_us(const perf::judged_point& point);

// The change strip's half-width as a share of the baseline (0.1 → −10%…+10%): the smallest of
// 10%, 20%, 50% that holds every point's threshold band and medians; larger changes are drawn at
// the edge.
double change_strip_half_width(const std::vector<const perf::judged_point*>& points);

// The <svg> element for one family's points, in the order given.
std::string family_chart_svg(const std::vector<const perf::judged_point*>& points);

}  // namespace kc::perf_report
