// kconform_perf_report's command line, apart from main() so the tests can run it:
//
//   kconform_perf_report --report-dir DIR [--out FILE] [--title TEXT]
//
// Reads DIR/perf/*.tsv and writes the page to FILE (default DIR/perf.html), printing its path.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kc::perf_report {

// Exit statuses: the summary script tells "nothing to report" from a broken invocation.
inline constexpr int exit_written = 0;
inline constexpr int exit_write_failed = 1;
inline constexpr int exit_bad_arguments = 2;
inline constexpr int exit_no_perf_rows = 3;  // no perf folder, or no rows in it: nothing is written

// `args` without the program name. The written path goes to `out`, messages to `err`.
int run_perf_report(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace kc::perf_report
