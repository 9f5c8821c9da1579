#include "tools/runner/retried_attempts.hpp"

#include "tools/runner/memory_failures.hpp"

namespace kc::runner {

settled_attempt settle_attempt(const attempt_reports& reports, const std::map<std::string, std::size_t>& retries,
                               std::size_t retry_limit, bool defer_exhausted) {
  settled_attempt out;
  for (const case_result& r : reports.cases) {
    const auto tried = retries.find(r.name);
    const bool out_of_memory = is_out_of_memory_from_outside(r);
    const bool retry = out_of_memory && (tried == retries.end() ? 0 : tried->second) < retry_limit;
    // After a retried case, whatever a case did, it did in a process that had just failed.
    if (retry) out.retried.push_back(r.name);
    else if (out.set_aside()) out.rerun.push_back(r.name);
    else {
      out.kept.push_back(r);
      if (defer_exhausted && (out_of_memory || !out.deferred.empty())) out.deferred.push_back(r.name);
    }
  }
  if (out.set_aside()) return out;
  if (out.deferred.empty()) out.hazards_outside_cases = reports.hazards_outside_cases;
  else out.hazards_outside_deferred = reports.hazards_outside_cases;
  return out;
}

}  // namespace kc::runner
