// kconform_run_report's command line, apart from main() so the tests can run it:
//
//   kconform_run_report --report-dir DIR [--out FILE] [--title TEXT]
//
// Reads the GPU run's report folder DIR and writes its page to FILE (default DIR/report.html),
// printing the path. Missing pieces (no perf rows, no benchmarks, no junit.xml) are said on the page;
// only a missing DIR or an unwritable FILE is an error.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kc::run_report {

inline constexpr int exit_written = 0;
inline constexpr int exit_write_failed = 1;
inline constexpr int exit_bad_arguments = 2;
inline constexpr int exit_no_report_dir = 3;

// `args` without the program name. The written path goes to `out`, messages to `err`.
int run_run_report(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace kc::run_report
