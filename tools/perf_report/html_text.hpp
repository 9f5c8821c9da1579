// Text for the performance page: HTML escaping (every string on the page that came from a row goes
// through html_escape, since variant names are whatever a registry or a student typed) and the few
// number formats the page shows, so the chart's tooltips and the tables print figures alike.
#pragma once

#include <string>
#include <string_view>

namespace kc::perf_report {

// &, <, >, " and ' as entities: safe in element text and in double- or single-quoted attributes.
std::string html_escape(std::string_view text);

// A time in µs with four significant figures ("1234", "98.76", "5.432", "0.1234").
std::string format_us(double us);

// A ratio to the baseline as a signed change: 1.123 → "+12.3%", 0.96 → "−4.0%", 1.0 → "+0.0%".
std::string format_change(double ratio);

// A relative threshold as a band: 0.03 → "±3.0%".
std::string format_band(double threshold);

// A share as a percentage with one decimal: 0.1 → "10.0%".
std::string format_percent(double fraction);

}  // namespace kc::perf_report
