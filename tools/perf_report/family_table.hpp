// One family's table, under its chart: the figures behind each row of the chart, for reading exact
// values and for print, where there is no tooltip.
#pragma once

#include "fixtures/perf_verdict.hpp"

#include <string>
#include <vector>

namespace kc::perf_report {

// The <table> element: point, median, q1–q3, baseline median, ratio, threshold, verdict, samples,
// batch, SM clock; a row per point, in the order given.
std::string family_table_html(const std::vector<const perf::judged_point*>& points);

}  // namespace kc::perf_report
