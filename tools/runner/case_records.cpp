#include "tools/runner/case_records.hpp"

#include "fixtures/case_progress.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

namespace kc::runner {

const char* name_of(case_status status) {
  switch (status) {
    case case_status::passed: return "passed";
    case case_status::failed: return "failed";
    case case_status::skipped: return "skipped";
  }
  return "failed";
}

namespace {
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const auto tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}
}  // namespace

progress_records parse_progress(const std::string& text) {
  progress_records records;
  std::set<std::string> ended;
  std::istringstream lines(text);
  std::string line, last_started, device_open_seconds;
  while (std::getline(lines, line)) {
    const std::vector<std::string> f = split_tabs(line);
    if (f.size() >= 2 && f[0] == "S") {
      last_started = f[1];
    } else if (f.size() >= 2 && f[0] == "R") {
      // The process's own CUDA start-up (cuInit and its context), kept on the case that opened the GPU,
      // or on the first case where it was opened before any: with the executor's executor_*_seconds it
      // says where a grading unit's first case went (issue 33: a class of 100 on one H100 was bound by
      // start-ups, 1.5 units a second with the GPU mostly idle).
      device_open_seconds = f[1];
    } else if (f.size() >= 6 && f[0] == "E") {
      if (ended.count(f[1]) != 0) continue;  // a watchdog's record and gtest's own: the first wins
      case_result r;
      r.name = f[1];
      r.status = f[2] == "passed" ? case_status::passed : f[2] == "skipped" ? case_status::skipped : case_status::failed;
      r.seconds = std::atof(f[3].c_str()) / 1000.0;
      for (const std::string& property : split_tabs(kc::progress::unescape_field(f[4]))) {
        const auto eq = property.find('=');
        if (eq != std::string::npos) r.properties.emplace_back(property.substr(0, eq), property.substr(eq + 1));
      }
      r.message = kc::progress::unescape_field(f[5]);
      if (!device_open_seconds.empty() && r.name == last_started) {
        r.properties.emplace_back(progress::device_open_property, device_open_seconds);
        device_open_seconds.clear();
      }
      ended.insert(r.name);
      records.ended.push_back(std::move(r));
    }
    // A partial last line (the process died mid-write) matches neither and is ignored.
  }
  if (!last_started.empty() && ended.count(last_started) == 0) records.started_not_ended = last_started;
  records.unclaimed_device_open_seconds = device_open_seconds;
  return records;
}

std::string process_end::describe() const {
  std::ostringstream out;
  if (killed_for_memory)
    out << "held " << (memory_bytes >> 20) << " MiB of device memory, past the device memory limit of "
        << (memory_limit_bytes >> 20)
        << " MiB per process (KCONFORM_PROCESS_MEMORY_LIMIT_MIB, as the driver counts it: every route of allocation), "
           "so the runner killed it and the other processes on the GPU kept theirs,";
  else if (killed_by_watchdog)
  {
    // Not a hang of the case's own: it was still waiting for another performance case to free the GPU
    // (grading/performance_hold.hpp), which that case's own deadline bounds far below this.
    if (waiting_for_gpu_hold) {
      out << "waited more than " << timeout_seconds + startup_allowance_seconds
          << " s for its GPU hold (other performance cases' work on the GPU, grading/performance_hold.hpp), so the "
             "runner killed it: the grader's wait, before any of this case's work";
      return out.str();
    }
    if (startup_allowance_seconds > 0)
      out << "did not finish within " << timeout_seconds + startup_allowance_seconds << " s (KCONFORM_CASE_TIMEOUT_S "
          << timeout_seconds << " s, and " << startup_allowance_seconds
          << " s for its process's start-up, KCONFORM_STARTUP_DEADLINE_S: its first case, or one in which it opened its GPU or started a grading executor)";
    else
      out << "did not finish within " << timeout_seconds << " s (KCONFORM_CASE_TIMEOUT_S)";
    out << ": hang; the runner killed it";
  }
  else if (signalled)
    out << "was killed by signal " << signal << " (" << strsignal(signal)
        << (signal == SIGABRT ? ": abort(), a failed assert() or an uncaught exception" : "") << ")";
  else
    out << "exited with status " << exit_code
        << (exit_code == kc::progress::hang_exit_code ? " (its own watchdog: a hang)" : "");
  return out.str();
}

case_result died_in_case(const std::string& name, const process_end& end, int attempt) {
  case_result r;
  r.name = name;
  r.status = case_status::failed;
  r.attempt = attempt;
  std::ostringstream message;
  message << "the test process " << end.describe() << " while running this case";
  if (end.killed_for_memory) {
  } else if (!end.killed_by_watchdog && !end.signalled && end.exit_code == 0)
    message << ": a process that exits in the middle of a case (exit(0) in the code under test) is a failure, never a "
               "pass";
  else if (!end.killed_by_watchdog && !end.signalled)
    message << " (exit() in the code under test, or a fatal error)";
  message << ". The cases after it ran in a fresh process.";
  r.message = message.str();
  // Killed while waiting for its GPU hold: the grader's wait, before any of the case's own work
  // (tools/grade_report reads grader_problem as grader_error: the grade is not final, grade.sh exits 2).
  if (end.killed_by_watchdog && end.waiting_for_gpu_hold) r.properties.emplace_back("grader_problem", end.describe());
  return r;
}

}  // namespace kc::runner
