// Running one test process under a per-case deadline: its output is passed through line by line
// (and shown to a callback, for the gtest case markers), and the process group is killed when the
// case it is in has run longer than the deadline. A tool that wraps the process (compute-sanitizer)
// writes its reports to a file of its own (tool_log); that file is followed while the process runs
// and shown, line by line, to a second callback: the tool's verdicts come from its own channel, never
// from what the program under it prints (a submission can print anything).
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
  // Added to the deadline of the process's first case (until the progress file holds an end record),
  // and of any later case while the process opens its GPU there (its last record is O, up to R:
  // fixtures/case_progress.hpp): what the process does once (its CUDA context; in grading the
  // sandboxed executor and, under a sanitizer, the tool) is start-up, not the case's work. Grading's
  // sanitizer runs measured 9.4-12 s for a first case beside three other students against a 12 s case
  // timeout (fixtures/watchdog.hpp, startup_deadline_seconds).
  double startup_allowance_seconds = 0;
  // How long a case may wait for its GPU hold (a W record, fixtures/case_progress.hpp: a grading
  // performance case waiting for other performance cases of its GPU, grading/performance_hold.hpp) on
  // top of its timeout; KCONFORM_GPU_HOLD_WAIT_S sets it for a whole unit (grade.sh: 1500 s, under the
  // test's CTest timeout). Each hold ahead ends when its case does or its runner kills it (the kernel
  // frees the lock), but a case's deadline restarts at each of its records and flock serves no queue,
  // so this is a generous bound, not a proof; a case killed while waiting is the grader's problem
  // (died_in_case), never the student's.
  double gpu_hold_wait_seconds = 600;
  std::string tool_log;  // the wrapping tool's --log-file, or empty
  // Device memory the child's process group may hold (0: no limit), and the watch that measures it
  // (nullptr: none on this machine).
  unsigned long long memory_limit_bytes = 0;
  class device_memory_watch* memory_watch = nullptr;
};

// Runs the child to its end, killing its process group at the case deadline or, polled every
// 250 ms, when it holds more device memory than spec.memory_limit_bytes. `on_line` sees every line of its stdout and stderr (merged); `on_tool_line`
// every line of spec.tool_log, each batch of them read before the output that arrived in the same poll
// (the tool writes a kernel's report before the program goes on to its next case).
process_end run_child(const child_spec& spec, const std::function<void(const std::string&)>& on_line,
                      const std::function<void(const std::string&)>& on_tool_line = {});

}  // namespace kc::runner
