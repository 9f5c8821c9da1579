// What went wrong in a failed case, from the message the suite or the runner recorded. The runner
// words each way a case can end ("killed by signal 11", "did not finish within 300 s"); the rest are
// the families' own checks. Kinds are listed in this order wherever several are reported.
#pragma once

#include <string_view>

namespace kc::grade_report {

enum class verdict_kind {
  timeout, crash, exit, fault, sanitizer, memory, refused_config, cached_answers, timing_evaded, wrong_result
};
inline constexpr int verdict_kind_count = 10;

const char* name_of(verdict_kind k);

// First match wins: a hang is reported as a timeout even if its process was then killed by a signal.
verdict_kind classify_failure(std::string_view message);

}  // namespace kc::grade_report
