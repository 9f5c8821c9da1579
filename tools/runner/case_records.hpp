// Reading what a test process recorded (fixtures/case_progress.hpp) and deciding each case's
// verdict, including the case a process died in.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kc::runner {

enum class case_status { passed, failed, skipped };
const char* name_of(case_status status);

struct case_result {
  std::string name;
  case_status status = case_status::failed;
  double seconds = 0;
  std::vector<std::pair<std::string, std::string>> properties;
  std::string message;
  int attempt = 0;  // which process ran it (1-based)
};

struct progress_records {
  std::vector<case_result> ended;  // E lines, in order
  std::string started_not_ended;   // the case the process was in when it stopped ("" if none)
  // Its R record's seconds (the process's CUDA start-up) when no ended case took them: the process
  // opened the GPU in the case it died in, or died before any case ended ("" if none).
  std::string unclaimed_device_open_seconds;
};
progress_records parse_progress(const std::string& text);

// How a test process ended.
struct process_end {
  bool killed_by_watchdog = false;  // the runner's own per-case timeout
  double timeout_seconds = 0;
  double startup_allowance_seconds = 0;  // added to it: the process's first case, or its GPU's opening (child_spec)
  bool waiting_for_gpu_hold = false;     // killed while waiting for its GPU hold (the allowance: that wait's)
  bool killed_for_memory = false;  // its process group held more device memory than allowed
  unsigned long long memory_bytes = 0, memory_limit_bytes = 0;
  bool signalled = false;
  int signal = 0;
  int exit_code = 0;
  // Where a process's seconds went outside its cases (issue 33: a grading class's "other"): from its
  // start to its first progress record (exec, loading, gtest's start), and from its last record to its
  // end (its exit: the CUDA context's teardown, a grading executor's). A process that wrote no record
  // has it all as launch.
  double launch_seconds = 0;
  double exit_seconds = 0;
  std::string describe() const;  // "killed by signal 11 (SIGSEGV)", "exited with status 0", ...
};

// The verdict for the case a process died in: always a failure, with what happened.
case_result died_in_case(const std::string& name, const process_end& end, int attempt);

}  // namespace kc::runner
