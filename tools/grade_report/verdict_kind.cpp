#include "tools/grade_report/verdict_kind.hpp"

namespace kc::grade_report {

const char* name_of(verdict_kind k) {
  switch (k) {
    case verdict_kind::timeout: return "timeout";
    case verdict_kind::crash: return "crash";
    case verdict_kind::exit: return "exit";
    case verdict_kind::fault: return "fault";
    case verdict_kind::sanitizer: return "sanitizer";
    case verdict_kind::memory: return "memory";
    case verdict_kind::refused_config: return "refused_config";
    case verdict_kind::cached_answers: return "cached_answers";
    case verdict_kind::timing_evaded: return "timing_evaded";
    case verdict_kind::wrong_result: return "wrong_result";
  }
  return "wrong_result";
}

verdict_kind classify_failure(std::string_view message) {
  const auto has = [message](std::string_view s) { return message.find(s) != std::string_view::npos; };
  std::string_view start = message;
  while (!start.empty() && (start.front() == ' ' || start.front() == '\n' || start.front() == '\t')) start.remove_prefix(1);
  if (start.starts_with("hang:") || has("did not finish within")) return verdict_kind::timeout;
  // The runner's word for cases left behind once every attempt at a unit hung.
  if (has("not run: the") && has("each hung")) return verdict_kind::timeout;
  if (has("hang budget")) return verdict_kind::timeout;  // ... and once a run's hangs spent its budget
  if (has("killed by signal")) return verdict_kind::crash;
  if (has("exited with status")) return verdict_kind::exit;
  if (has("sticky CUDA error") || has("illegal") || has("unspecified launch failure")) return verdict_kind::fault;
  if (has("hazard")) return verdict_kind::sanitizer;
  if (has("out of memory") || has("memory_exhausted") || has("device memory limit")) return verdict_kind::memory;
  if (has("refused")) return verdict_kind::refused_config;
  // grading/graded_performance.hpp: the answer after the timing, on new contents, was the old one.
  if (has("depends on earlier calls")) return verdict_kind::cached_answers;
  // grading/judged_timing.hpp: a timed call returned before its output was complete.
  if (has("timing evaded")) return verdict_kind::timing_evaded;
  return verdict_kind::wrong_result;
}

}  // namespace kc::grade_report
