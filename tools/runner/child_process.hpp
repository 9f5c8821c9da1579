// Running one test process under a per-case deadline: its output is passed through line by line
// (and shown to a callback, for the sanitizer's reports), and the process group is killed when the
// case it is in has run longer than the deadline.
#pragma once

#include "tools/runner/case_records.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kc::runner {

struct child_spec {
  std::vector<std::string> argv;                                  // argv[0] is looked up in PATH
  std::vector<std::pair<std::string, std::string>> environment;  // added to the runner's own
  std::string progress_file;                                      // watched for the running case
  double case_timeout_seconds = 300;
};

// Runs the child to its end. `on_line` sees every line of its stdout and stderr (merged).
process_end run_child(const child_spec& spec, const std::function<void(const std::string&)>& on_line);

}  // namespace kc::runner
