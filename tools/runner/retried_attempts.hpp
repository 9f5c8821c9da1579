// Which of a process's reports stand when one of its cases is run again for device memory.
//
// A case that fails out of device memory from outside (memory_failures.hpp: most often a neighbour's
// doing) runs again in a fresh process. The process it failed in is then a failed-and-retried attempt,
// and nothing it reported from that case on is scored (issue 33: a correct submission's memcheck unit
// kept the finding its first, failed process reported outside any case, and lost the tool):
//   - the retried case itself;
//   - every case the process ran after it, which ran in whatever the failure left behind (a
//     submission that keeps its first allocation keeps a failed one): they run again too;
//   - every tool report outside any case (start-up, exit: a leak the failure left, the tool's report
//     of the failed call): the fresh process starts and exits under the tool again, and reports its own.
// The cases that ended before the retried case began stand: nothing after them changes them. When a
// case has been retried as often as allowed, its last failure stands, and so does its process, unless
// the grader runs such cases again alone after the batch (`defer_exhausted`: KCONFORM_MEMORY_STARVED_FILE,
// scripts/rerun_memory_starved.sh): then that case and every case its process ran after it stand only
// until that run replaces them (`deferred`), and the process's reports outside any case are set apart
// (`hazards_outside_deferred`), to be replaced by the run alone's, and counted where it does not run.
#pragma once

#include "tools/runner/case_records.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace kc::runner {

// What one process reported about the cases it was given.
struct attempt_reports {
  std::vector<case_result> cases;         // in the order it ran them (the one it died in, if any, last)
  std::size_t hazards_outside_cases = 0;  // tool reports attributed to none of its cases
};

struct settled_attempt {
  std::vector<case_result> kept;          // scored
  std::vector<std::string> retried;       // failed out of device memory: run again
  std::vector<std::string> rerun;         // ran after a retried case in the same process: run again
  std::size_t hazards_outside_cases = 0;  // counted: the process's, or 0 when it was a retried attempt
  // defer_exhausted: the kept cases from the first whose retries ran out on, and the process's reports
  // outside any case when there is one (then hazards_outside_cases is 0).
  std::vector<std::string> deferred;
  std::size_t hazards_outside_deferred = 0;
  bool set_aside() const { return !retried.empty(); }
};

// `retries` is how often each case has already been run again for device memory; a case is retried
// while that is below `retry_limit` (KCONFORM_OOM_RETRIES). The caller counts the new retries.
settled_attempt settle_attempt(const attempt_reports& reports, const std::map<std::string, std::size_t>& retries,
                               std::size_t retry_limit, bool defer_exhausted = false);

}  // namespace kc::runner
