// The run page's sections, each a <section> element with a fixed id (the page's contents list links
// to them); run_page.cpp puts them in order. A section whose files are missing says so in its text.
#pragma once

#include "tools/run_report/run_folder.hpp"

#include <string>

namespace kc::run_report {

// id "failures": every failed case (unit by unit: message, replay line, data dump, the smallest
// failing case where the cases recorded their work), then the CTest tests that failed with no
// failed case recorded (a crash before any case, a CPU test, a benchmark), with their output's end.
std::string failures_section_html(const run_folder& run);

// id "families": a table of the families (a unit's first dotted component), then per family its
// units' counts and its known-bad rows (each row's verdict and first catch).
std::string families_section_html(const run_folder& run);

// id "slowest": the ten slowest units (CTest tests when the run recorded no units).
std::string slowest_section_html(const run_folder& run);

// id "perf": counts by verdict, the points to look at, and per family tools/perf_report's chart and
// table; a link to perf.html when the folder has it.
std::string perf_section_html(const run_folder& run);

// id "benchmarks": each *_benchmark.csv as a table, with a link to its .md.
std::string benchmarks_section_html(const run_folder& run);

// The id of a unit's block in the failures section, and of a failed case's entry there.
std::string unit_failures_id(const std::string& unit);
std::string failed_case_id(const std::string& unit, const std::string& case_name);

}  // namespace kc::run_report
