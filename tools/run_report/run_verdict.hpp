// The run's verdict, from what it recorded. PASSED needs evidence: CTest's junit.xml with at least one
// test, none failed, no failed case in any unit, and no FAILED verdict in summary.md (which also knows
// the build's and ctest's exit statuses). A run that recorded nothing is not a pass.
#pragma once

#include "tools/run_report/run_folder.hpp"

#include <string>
#include <vector>

namespace kc::run_report {

struct run_verdict {
  bool passed = false;
  std::vector<std::string> reasons;  // why it failed, one sentence each; empty when passed
};

run_verdict verdict_of(const run_folder& run);

}  // namespace kc::run_report
