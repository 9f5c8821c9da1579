// The run page: one self-contained HTML5 file (inline CSS and SVG, no scripts, fonts or images from
// anywhere), so it opens from a CI artefact or a mail attachment and prints as it shows. Top to
// bottom: the verdict and why; GPU, driver, commit, command and times (summary.md); the counts; the
// failed cases; the families and their known-bad rows; the slowest units; the perf points; the
// benchmark tables; the run's files. Links point only into the report folder (failures/, perf.html,
// the logs), relative, so the folder can move.
#pragma once

#include "tools/run_report/run_folder.hpp"

#include <string>

namespace kc::run_report {

struct page_options {
  std::string title = "kconform GPU run";
  std::string source;  // the folder read, shown in the footer
};

std::string run_page_html(const run_folder& run, const page_options& options);

}  // namespace kc::run_report
