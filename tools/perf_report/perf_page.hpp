// The performance page: one self-contained HTML5 file (inline CSS and SVG, no scripts, so it opens
// from a CI artefact or a mail attachment and prints as it shows). Layout, top to bottom: title, GPUs
// and counts by verdict; the planted-slowdown banner when the run planted one; the points to look at
// (SLOW, AMBIGUOUS, FAST); a legend; per family a chart and its table; the malformed rows.
#pragma once

#include "tools/perf_report/perf_rows.hpp"

#include <string>

namespace kc::perf_report {

struct page_options {
  std::string title = "kconform performance";
  std::string source;  // where the rows came from ("reports/2026-11-23/perf"), shown in the footer
};

std::string perf_page_html(const perf_rows& rows, const page_options& options);

// The page's style sheet and the chart legend, for another page that shows the same charts and
// tables (tools/run_report's run page).
std::string perf_page_style_sheet();
std::string perf_legend_html();

// The counts by verdict (a list, every verdict, zeros greyed) and the points to look at (SLOW, then
// AMBIGUOUS, then FAST, each linking to #anchor(family); "" when none): the page's header, for
// another page that shows the same points.
std::string verdict_counts_html(const perf_rows& rows);
std::string points_to_look_at_html(const perf_rows& rows, std::string (*anchor)(const std::string& family));

// The banner's text when any row had a planted slowdown ("planted slowdown of 10.0% — SLOW verdicts
// are expected"); empty when none did.
std::string planted_banner_text(const perf_rows& rows);

}  // namespace kc::perf_report
