#include "tools/runner/retried_attempts.hpp"

#include "tools/runner/memory_failures.hpp"

namespace kc::runner {

settled_attempt settle_attempt(const attempt_reports& reports, const std::map<std::string, std::size_t>& retries,
                               std::size_t retry_limit) {
  settled_attempt out;
  for (const case_result& r : reports.cases) {
    const auto tried = retries.find(r.name);
    const bool retry = is_out_of_memory_from_outside(r) && (tried == retries.end() ? 0 : tried->second) < retry_limit;
    // After a retried case, whatever a case did, it did in a process that had just failed.
    if (retry) out.retried.push_back(r.name);
    else if (out.set_aside()) out.rerun.push_back(r.name);
    else out.kept.push_back(r);
  }
  if (!out.set_aside()) out.hazards_outside_cases = reports.hazards_outside_cases;
  return out;
}

}  // namespace kc::runner
