// kconform_runner: runs the cases of one unit of a GoogleTest program in as few processes as it can,
// so that a CUDA context serves many cases, while a case that crashes, hangs or exits the process
// costs that case alone.
//
//   kconform_runner list --exe <program> [--filter <gtest filter>] [--listing-cache <file>]
//       one line per unit: <unit> <tab> <cases> <tab> <cost> (CTest's registration reads it)
//   kconform_runner run --exe <program> --name <ctest name> [--unit <unit> | --units <unit[@i/n],...>
//       --name-prefix <prefix>] [--filter <gtest filter>]
//       [--listing-cache <file>]
//       [--shard <i>/<n>] [--report-dir <dir>] [--case-timeout <s>] [--isolate] [--sanitizer clean|expect-hazard]
//       [--tool <name>] [-- <wrapper command...>]
//
// --listing-cache: the program's unfiltered `--gtest_list_tests` output is kept in <file> with the
// program's fingerprint (path, size, modification time), and used while the program is unchanged,
// so a unit's run does not start a process only to list the cases CTest's registration just listed.
// `run` selects the unit's cases (narrowed further by KCONFORM_GTEST_FILTER, if set, and to those of
// declared cost <= KCONFORM_MAX_CASE_COST, if set: the quick preset), runs them in one
// process with per-case records (fixtures/case_progress.hpp) and a per-case deadline
// (KCONFORM_CASE_TIMEOUT_S, default --case-timeout, else 300 s; KCONFORM_HANG_STREAK=k stops a unit
// after k consecutive hung cases, failing the rest as not run; KCONFORM_HANG_BUDGET_S=t with
// KCONFORM_HANG_BUDGET_FILE stops every unit sharing the file once its hangs cost t seconds in all;
// KCONFORM_OOM_RETRIES=k runs a case that failed out of device memory again, up to k times, and sets
// aside what its process reported from that case on: retried_attempts.hpp; KCONFORM_MEMORY_STARVED_FILE=<file>
// gets a line <name> <tab> <case> <tab> starved for each case that failed so on every run (grade.sh runs
// those cases again, alone: KCONFORM_RERUN_ALONE=1, rerun_alone() below), and <tab> memory_kill for each the
// runner's memory watch killed; KCONFORM_TOOL_UNTIL_FINDING=1
// ends a `clean` tool run after the process in which its tool first reported a hazard, the cases left
// skipped as not run), and whenever that process dies in a
// case — a crash, a trap that kills the context, a hang, exit() or abort() — records that case as
// failed with the reason and runs the remaining cases in a fresh process. A case a process never
// reported is never a pass. It writes <dir>/units/<name>.xml (JUnit), <name>.json (the same, for
// tools) and <name>.tsv (statistics),
// with <dir> = KCONFORM_REPORT_DIR if set, else --report-dir. Exit: 0 all passed (skips allowed),
// 77 every case skipped (no GPU), 1 any failure or no case selected.
//
// --units runs the cases of several units in the same processes (one CUDA context, and in grading one
// executor, for all of them: a grading process's start costs seconds where its cases cost
// milliseconds) and still reports each unit as its own: <dir>/units/<prefix><unit>.{xml,json,tsv},
// each with its own cases, the processes they shared and its cases' seconds plus an equal share of the
// rest of the wall time. A hang streak (KCONFORM_HANG_STREAK) is counted per unit, over its own cases
// in order, and stops that unit's cases only. An entry <unit>@<i>/<n> is the i-th of n contiguous
// slices of that unit's cases, reported as <prefix><unit>.<i>of<n> (tools/runner/unit_choice.hpp),
// and is a unit of its own to all of the above (its report, its hang streak).
//
// A wrapper (compute-sanitizer) runs the program under it; with --sanitizer the runner passes it
// `--log-file <dir>/units/<name>.p<k>.tool` (a FIFO) and reads hazards from there alone (never from
// the program's output), attributing each to the case whose start marker (written into the same FIFO
// by the program's case listener) precedes it: `clean`
// fails a case with any, `expect-hazard` fails a case without one (the known-bad rows only a
// sanitizer can catch).
#include "fixtures/case_progress.hpp"
#include "fixtures/replay.hpp"
#include "fixtures/watchdog.hpp"
#include "tools/runner/case_listing.hpp"
#include "tools/runner/child_process.hpp"
#include "tools/runner/device_memory_watch.hpp"
#include "tools/runner/hang_streak.hpp"
#include "tools/runner/memory_failures.hpp"
#include "tools/runner/retried_attempts.hpp"
#include "tools/runner/sanitizer_output.hpp"
#include "tools/runner/unit_choice.hpp"
#include "tools/runner/unit_report.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

namespace kc::runner {
namespace {

struct options {
  std::string command;
  std::string exe, name, unit, filter, report_dir, sanitizer, tool;
  std::string listing_cache;  // --listing-cache <file>: the program's unfiltered listing, kept between calls
  // --units a,b@1/2,...: several units (or slices of one, tools/runner/unit_choice.hpp) in shared
  // processes, reported apart
  std::vector<unit_choice> units;
  std::string name_prefix;         // --name-prefix: their reports are <prefix><unit>
  int shard = 1, shards = 1;  // --shard i/n: the i-th of n contiguous slices of the unit's cases
  double case_timeout = 0;
  bool isolate = false;
  std::vector<std::string> wrapper;
};

// KCONFORM_TOOL_UNTIL_FINDING=1 (scripts/grade.sh's sanitizer units): a `clean` run stops at its
// tool's first finding.
bool tool_until_finding() {
  const char* value = std::getenv("KCONFORM_TOOL_UNTIL_FINDING");
  return value != nullptr && std::string(value) == "1";
}

// A setting's seconds: a finite number above 0, else nullopt (unset, empty, garbage, inf, nan).
std::optional<double> positive_seconds(const char* text) {
  if (text == nullptr || *text == '\0') return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (*end != '\0' || !std::isfinite(value) || value <= 0) return std::nullopt;
  return value;
}

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "kconform_runner: " << problem << "\n(see tools/runner/main.cpp for usage)\n";
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  if (argc < 2) usage("no command");
  o.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--exe") o.exe = value();
    else if (arg == "--name") o.name = value();
    else if (arg == "--unit") o.unit = value();
    else if (arg == "--units") {
      std::stringstream list(value());
      for (std::string unit; std::getline(list, unit, ',');) {
        if (unit.empty()) continue;
        const std::optional<unit_choice> choice = parse_unit_choice(unit);
        if (!choice) usage("--units takes <unit> or <unit>@<i>/<n> (1 <= i <= n), not '" + unit + "'");
        o.units.push_back(*choice);
      }
    }
    else if (arg == "--name-prefix") o.name_prefix = value();
    else if (arg == "--filter") o.filter = value();
    else if (arg == "--report-dir") o.report_dir = value();
    else if (arg == "--case-timeout") o.case_timeout = std::atof(value().c_str());
    else if (arg == "--sanitizer") o.sanitizer = value();
    else if (arg == "--tool") o.tool = value();
    else if (arg == "--listing-cache") o.listing_cache = value();
    else if (arg == "--isolate") o.isolate = true;
    else if (arg == "--shard") {
      const std::string text = value();
      const auto slash = text.find('/');
      o.shard = std::atoi(text.substr(0, slash).c_str());
      o.shards = slash == std::string::npos ? 0 : std::atoi(text.substr(slash + 1).c_str());
      if (o.shards < 1 || o.shard < 1 || o.shard > o.shards) usage("--shard needs i/n with 1 <= i <= n");
    }
    else if (arg == "--") {
      for (++i; i < argc; ++i) o.wrapper.emplace_back(argv[i]);
    } else usage("unknown argument " + arg);
  }
  if (o.exe.empty()) usage("--exe is required");
  if (!o.units.empty() && (!o.unit.empty() || o.name_prefix.empty() || o.shards > 1))
    usage("--units needs --name-prefix (its reports are named <prefix><unit>), and takes no --unit or --shard");
  if (const std::string problem = unit_choices_problem(o.units); !problem.empty()) usage("--units: " + problem);
  return o;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<listed_case> list_cases(const options& o) {
  // The unfiltered listing may come from --listing-cache (case_listing.hpp: recorded for this build
  // of the program by an earlier call, CTest's registration).
  const bool cacheable = !o.listing_cache.empty() && o.filter.empty();
  if (cacheable)
    if (const std::optional<std::string> cached = read_listing_cache(o.listing_cache, o.exe)) return parse_gtest_listing(*cached);
  child_spec spec;
  spec.argv = {o.exe, "--gtest_list_tests"};
  if (!o.filter.empty()) spec.argv.push_back("--gtest_filter=" + o.filter);
  spec.case_timeout_seconds = 120;
  std::string listing;
  const process_end end = run_child(spec, [&](const std::string& line) { listing += line + '\n'; });
  if (end.signalled || end.killed_by_watchdog || end.exit_code != 0) {
    std::cerr << listing << "kconform_runner: listing the cases of " << o.exe << " failed: it " << end.describe() << '\n';
    std::exit(1);
  }
  if (cacheable && !write_listing_cache(o.listing_cache, o.exe, listing))
    std::cerr << "kconform_runner: could not record the listing in " << o.listing_cache << " (each run lists again)\n";
  return parse_gtest_listing(listing);
}

// How many of the tool's own hazard lines a record of reports outside any case keeps (tool_said), and
// how much of each: enough to say what kind they were (leaks at exit, an API error at load). Bounded,
// since a submission under the tool can write into the tool's channel too (its sandbox must let the
// tool write there): forged lines may show, clipped, but never grow the runner or the reports.
constexpr std::size_t quoted_hazard_lines = 3;
constexpr std::size_t quoted_line_bytes = 300;
// How much of the tool's channel a process echoes into the log.
constexpr std::size_t tool_echo_bytes = std::size_t{8} << 20;

// Tool reports outside any case: how many, and the first few of their lines as reports may show them
// (shown_text: clipped, control characters and invalid UTF-8 as '?'), each once.
struct outside_reports {
  std::size_t hazards = 0;
  std::vector<std::string> said;

  void quote(const std::string& shown) {
    if (said.size() < quoted_hazard_lines && std::find(said.begin(), said.end(), shown) == said.end())
      said.push_back(shown);
  }
  void add(std::size_t count, const outside_reports& process) {
    hazards += count;
    if (count > 0)
      for (const std::string& line : process.said) quote(line);
  }
};

double case_timeout(const options& o) {
  if (const std::optional<double> seconds = positive_seconds(std::getenv("KCONFORM_CASE_TIMEOUT_S"))) return *seconds;
  return o.case_timeout > 0 ? o.case_timeout : 300;
}

// KCONFORM_RERUN_ALONE=1: grade.sh's run again alone (scripts/rerun_memory_starved.sh), of the cases
// that failed out of device memory on every run beside the batch (KCONFORM_RERUN_CASES names them).
// Nothing else is on the GPU, so a case that fails so again is its own doing: no retries, no list. The
// hang budget still holds (the script first takes these cases' own hangs of the first run out of it):
// a run alone may never be more lenient than the first run, or faking a full device would buy hangs.
// The unit's reports keep the first run's other cases, these replacing theirs (unit_report.hpp,
// with_cases_replaced), and each merge is recorded in <KCONFORM_MEMORY_STARVED_FILE>.merged
// (<unit> <tab> <cases>), which the script reads before it says a test ran again.
bool rerun_alone() {
  const char* text = std::getenv("KCONFORM_RERUN_ALONE");
  return text != nullptr && std::string(text) == "1";
}

std::size_t out_of_memory_retries() {
  if (rerun_alone()) return 0;
  const char* text = std::getenv("KCONFORM_OOM_RETRIES");
  return text != nullptr && std::atoi(text) > 0 ? static_cast<std::size_t>(std::atoi(text)) : 0;
}

// KCONFORM_HANG_STREAK: 0 (unset) = off.
std::size_t hang_streak_limit() {
  const char* text = std::getenv("KCONFORM_HANG_STREAK");
  return text != nullptr && std::atoi(text) > 0 ? static_cast<std::size_t>(std::atoi(text)) : 0;
}

// KCONFORM_HANG_BUDGET_S=t with KCONFORM_HANG_BUDGET_FILE=<file>: the seconds that hung cases may
// cost all the units of one grading run together (one submission: its groups and sanitizer runs,
// side by side). Each hung case appends the deadline that ended it to the file; once they add up to
// t, no unit sharing the file starts another process, and the cases left fail as not run. A
// submission that spins in every group then costs about t of wall time, not a deadline per case
// (issue 19: a hang must cost seconds, not minutes).
struct hang_budget {
  std::string file;
  double seconds = 0;
  bool active() const { return seconds > 0 && !file.empty(); }
  double spent() const {
    std::ifstream in(file);
    double total = 0;
    for (std::string line; std::getline(in, line);) total += std::atof(line.substr(line.rfind('\t') + 1).c_str());
    return total;
  }
  void spend(const std::string& unit, const std::string& case_name, double cost) const {
    std::ofstream(file, std::ios::app) << unit << '\t' << case_name << '\t' << cost << '\n';
  }
};

hang_budget hang_budget_from_environment() {
  hang_budget b;
  const char* seconds = std::getenv("KCONFORM_HANG_BUDGET_S");
  const char* file = std::getenv("KCONFORM_HANG_BUDGET_FILE");
  if (seconds != nullptr && std::atof(seconds) > 0 && file != nullptr && *file != '\0') {
    b.seconds = std::atof(seconds);
    b.file = file;
  }
  return b;
}

void write_unit_reports(const std::filesystem::path& report_dir, const unit_outcome& ran) {
  unit_outcome unit = ran;
  if (rerun_alone()) {
    std::ifstream in(report_dir / (ran.name + ".json"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::optional<unit_outcome> earlier = unit_from_json(text);
    if (!earlier) {
      // Nothing to merge into: the first run's reports stand as they are, and no merge is recorded.
      std::cerr << "kconform_runner: no readable report of " << ran.name << " to put the run alone's cases in\n";
      return;
    }
    unit = with_cases_replaced(*earlier, ran,
                               "(run again alone, after the batch: in its process beside the batch, a case had failed "
                               "out of device memory on every run)",
                               {ran.name + ".OutsideAnyCase.deferred"});
  }
  // Each file whole or not at all (written beside, then renamed): a run alone stopped at its share of
  // the phase must leave the first run's reports, not half of them.
  const auto write_whole = [&](const std::string& file, const std::string& text) {
    const std::filesystem::path path = report_dir / file, partial = report_dir / (file + ".partial");
    { std::ofstream(partial) << text; }
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
  };
  write_whole(unit.name + ".xml", junit_xml(unit));
  write_whole(unit.name + ".tsv", stats_line(unit) + '\n');
  write_whole(unit.name + ".json", unit_json(unit));
  // Recorded last, once the merged reports are in place (scripts/rerun_memory_starved.sh reads it).
  if (rerun_alone())
    if (const char* list = std::getenv("KCONFORM_MEMORY_STARVED_FILE"); list != nullptr && *list != '\0')
      std::ofstream(std::string(list) + ".merged", std::ios::app) << ran.name << '\t' << ran.cases.size() << '\n';
}

// Settles as not run every case of `names` that has no result yet and for which `why` gives a reason:
// failed (never passed), or skipped where `status` says so, in process `attempt`. Returns how many.
// Every way a unit stops starting processes for its cases (the hang budget, a hang streak, a tool's
// first finding, a process that reported none of its list) words its reason through this.
template <class Why>
std::size_t settle_not_run(const std::vector<std::string>& names, std::map<std::string, case_result>& results, int attempt,
                           case_status status, Why&& why) {
  std::size_t settled = 0;
  for (const std::string& name : names) {
    if (results.count(name) != 0) continue;
    const std::optional<std::string> reason = why(name);
    if (!reason) continue;
    case_result r;
    r.name = name;
    r.status = status;
    r.attempt = attempt;
    r.message = "not run: " + *reason;
    results[name] = r;
    ++settled;
  }
  return settled;
}

int run_unit(const options& o) {
  const auto started = std::chrono::steady_clock::now();
  const double started_epoch = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const char* narrowing = std::getenv("KCONFORM_GTEST_FILTER");
  // A quick run (the gpu-quick preset) leaves out the cases whose declared cost is above this.
  const char* max_cost_text = std::getenv("KCONFORM_MAX_CASE_COST");
  const double max_cost = max_cost_text != nullptr && std::atof(max_cost_text) > 0 ? std::atof(max_cost_text) : 0;
  std::vector<std::string> todo;
  std::map<std::string, std::string> unit_of;  // each selected case's unit (--units: reported apart)
  std::size_t too_costly = 0;
  const std::vector<listed_case> listing = list_cases(o);
  // A run alone (KCONFORM_RERUN_ALONE) runs the cases KCONFORM_RERUN_CASES names, a variable no test's
  // own environment sets (a replay's --only sets KCONFORM_GTEST_FILTER, which would override the script's).
  const char* rerun_cases = rerun_alone() ? std::getenv("KCONFORM_RERUN_CASES") : nullptr;
  const auto narrowed = [&](const listed_case& c) {
    return (narrowing == nullptr || gtest_filter_matches(narrowing, c.name)) &&
           (rerun_cases == nullptr || gtest_filter_matches(rerun_cases, c.name));
  };
  const auto within_cost = [&](const listed_case& c) { return max_cost <= 0 || c.cost <= max_cost; };
  if (!o.units.empty()) {
    // Each unit's cases (or its slice's: unit_choice.hpp) under the name it is reported as.
    for (const chosen_case& c : choose_cases(listing, o.units, [&](const listed_case& c) { return narrowed(c) && within_cost(c); })) {
      todo.push_back(c.name);
      unit_of[c.name] = c.reported_unit;
    }
    too_costly = choose_cases(listing, o.units, [&](const listed_case& c) { return narrowed(c) && !within_cost(c); }).size();
  } else {
    for (const listed_case& c : listing)
      if ((o.unit.empty() || c.unit == o.unit) && narrowed(c)) {
        if (!within_cost(c)) ++too_costly;
        else {
          todo.push_back(c.name);
          unit_of[c.name] = c.unit;
        }
      }
  }
  if (o.shards > 1) {
    // Contiguous slices keep cases that share a prepared input (same size and input) together.
    const std::size_t begin = todo.size() * (o.shard - 1) / o.shards, end = todo.size() * o.shard / o.shards;
    todo = std::vector<std::string>(todo.begin() + static_cast<std::ptrdiff_t>(begin), todo.begin() + static_cast<std::ptrdiff_t>(end));
  }
  if (too_costly > 0)
    std::cout << "kconform_runner: " << too_costly << " case(s) of cost above KCONFORM_MAX_CASE_COST=" << max_cost
              << " left out (a quick run)\n";
  unit_outcome unit;
  unit.name = o.name.empty() ? (o.unit.empty() ? "unit" : o.unit) : o.name;
  if (todo.empty() && too_costly > 0) {
    std::cout << "SKIPPED: every case of " << unit.name << " is above KCONFORM_MAX_CASE_COST (a quick run)\n";
    return 77;
  }
  if (todo.empty()) {
    std::cout << "FAILED: " << unit.name << ": no case selected (unit '" << o.unit << "', filter '" << o.filter
              << "'): a test that checks nothing must not pass\n";
    return 1;
  }

  const char* report_env = std::getenv("KCONFORM_REPORT_DIR");
  const std::filesystem::path report_dir =
      std::filesystem::path(report_env != nullptr && *report_env != '\0' ? report_env : o.report_dir.empty() ? "." : o.report_dir) / "units";
  std::filesystem::create_directories(report_dir);
  const std::string scratch = (report_dir / (unit.name + ".progress")).string();
  const std::string cases_file = (report_dir / (unit.name + ".cases")).string();

  std::map<std::string, case_result> results;
  outside_reports elsewhere;
  // Reports outside any case of processes whose cases run again alone after the batch (retried_attempts.hpp,
  // defer_exhausted), and those cases: each stands until that run replaces it.
  outside_reports deferred_elsewhere;
  std::set<std::string> deferred;
  const hang_budget budget = hang_budget_from_environment();
  const std::size_t oom_retries = out_of_memory_retries();
  // Cases still failing out of device memory from outside after every retry: the device was full the
  // whole time. KCONFORM_MEMORY_STARVED_FILE (set by grade.sh) lists them ("starved"), and the cases
  // their process ran after them ("after_starved", which ran in what the failure left), so the grader
  // runs them again once the batch has ended, alone on its GPU (memory_failures.hpp): whoever was
  // graded beside a student decides none of its verdicts, however long a neighbour keeps the device
  // full. It lists the cases whose process the runner killed for device memory too ("memory_kill"): a
  // student that hoards fills the device for its own other processes as much as for anyone's, so its
  // starved cases are its own doing and are not run again (measured on an H100: allocates_everything's
  // own values test, run again alone, starved again).
  const char* starved_file = std::getenv("KCONFORM_MEMORY_STARVED_FILE");
  const bool list_starved = starved_file != nullptr && *starved_file != '\0' && !rerun_alone();
  std::map<std::string, std::size_t> retried;  // per case: runs again after an out-of-memory failure
  std::set<std::string> rerun_after_retry;     // cases run again because they ran after a retried one
  std::string tool_finding;  // where the tool first reported a hazard, in a report that stands (KCONFORM_TOOL_UNTIL_FINDING)
  const unsigned long long memory_limit = process_memory_limit_bytes();
  const std::unique_ptr<device_memory_watch> memory_watch = memory_limit > 0 ? device_memory_watch::open() : nullptr;
  if (memory_limit > 0 && memory_watch == nullptr)
    std::cout << "kconform_runner: KCONFORM_PROCESS_MEMORY_LIMIT_MIB is set but NVML cannot be loaded here: no device "
                 "memory watch\n";
  while (results.size() < todo.size()) {
    if (budget.active()) {
      if (const double spent = budget.spent(); spent >= budget.seconds) {
        std::ostringstream text;
        text << "the hang budget of this grading run is spent (its hung cases cost " << spent
             << " s across its units; KCONFORM_HANG_BUDGET_S=" << budget.seconds
             << "), so no further process was started for it";
        settle_not_run(todo, results, unit.processes, case_status::failed,
                       [&](const std::string&) { return std::optional<std::string>(text.str()); });
        break;
      }
    }
    std::vector<std::string> batch;
    for (const std::string& name : todo)
      if (results.count(name) == 0) {
        batch.push_back(name);
        if (o.isolate) break;
      }
    {
      std::ofstream list(cases_file, std::ios::trunc);
      for (const std::string& name : batch) list << name << '\n';
    }
    std::filesystem::remove(scratch);
    ++unit.processes;
    child_spec spec;
    // Grading (KCONFORM_TOOL_WRAPS_EXECUTOR=1, scripts/grade.sh): the submission runs in the grading
    // program's executor (grading/executor/), which the program starts sandboxed: the tool must wrap
    // that process, not the program (a tool's injection cannot follow a child into the sandbox). The
    // program gets the tool's command in KCONFORM_EXECUTOR_WRAPPER and runs unwrapped.
    const char* wraps_executor = std::getenv("KCONFORM_TOOL_WRAPS_EXECUTOR");
    const bool tool_wraps_executor = !o.sanitizer.empty() && wraps_executor != nullptr && std::string(wraps_executor) == "1";
    if (!tool_wraps_executor) spec.argv = o.wrapper;
    if (!o.sanitizer.empty()) {
      // The tool reports into a channel of its own: hazards are counted from there, never from the
      // program's output, which the code under test controls (a submission that prints
      // "========= Error: Race reported" must not fail a tool, nor hide one). The channel is a FIFO
      // that the program's case listener (fixtures/case_progress.cpp, KCONFORM_TOOL_LOG) also writes
      // its case markers into, one write() each: the tool's report and the marker of the case it
      // happened in arrive in the order they were written.
      spec.tool_log = (report_dir / (unit.name + ".p" + std::to_string(unit.processes) + ".tool")).string();
      std::filesystem::remove(spec.tool_log);
      if (::mkfifo(spec.tool_log.c_str(), 0600) != 0) std::perror("kconform_runner: mkfifo (the tool log falls back to a file)");
      if (tool_wraps_executor) {
        // The executor's tool writes here as uid 65534; its sandbox grants it this one file.
        ::chmod(spec.tool_log.c_str(), 0622);
        std::string wrapper;
        for (const std::string& part : o.wrapper) wrapper += part + '\x1f';
        wrapper += "--log-file\x1f" + spec.tool_log;
        spec.environment.emplace_back("KCONFORM_EXECUTOR_WRAPPER", wrapper);
      } else {
        spec.argv.insert(spec.argv.end(), {"--log-file", spec.tool_log});
      }
      spec.environment.emplace_back("KCONFORM_TOOL_LOG", spec.tool_log);
    }
    spec.argv.push_back(o.exe);
    if (o.sanitizer.empty()) spec.argv.emplace_back("--gtest_brief=1");  // under a tool, the full log helps read its reports
    spec.environment.insert(spec.environment.end(), {{"KCONFORM_PROGRESS", scratch}, {"KCONFORM_CASES_FILE", cases_file}});
    // The program learns its cases' deadline, so what it waits for inside a case (another process's
    // computation of a shared reference, fixtures/run_cache.hpp) can stay well inside it.
    std::ostringstream deadline;
    deadline << case_timeout(o);
    spec.environment.emplace_back("KCONFORM_CASE_TIMEOUT_S", deadline.str());
    spec.progress_file = scratch;
    spec.case_timeout_seconds = case_timeout(o);
    spec.startup_allowance_seconds = kc::startup_deadline_seconds();
    // A graded performance case's wait for its GPU hold (KCONFORM_GPU_HOLD_WAIT_S: grade.sh
    // --performance-overlap sets it below the test's own CTest timeout). A budget for the whole unit,
    // not each process: what the unit has run so far is taken off, so a retried process (device
    // memory) cannot wait again past CTest's timeout, which would leave no report at all.
    if (const std::optional<double> hold_wait = positive_seconds(std::getenv("KCONFORM_GPU_HOLD_WAIT_S")))
      spec.gpu_hold_wait_seconds =
          std::max(0.0, *hold_wait - std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    spec.memory_limit_bytes = memory_limit;
    spec.memory_watch = memory_watch.get();

    std::map<std::string, std::size_t> hazards;  // per case, from the wrapper's reports
    const std::set<std::string> in_batch(batch.begin(), batch.end());
    // The first few hazard lines outside this process's cases, as the tool wrote them: such a report
    // names no case whose log a reader could look in, so its record keeps them (a leak at exit, an API
    // error at load), as its tool_said property.
    outside_reports outside_heads;  // its lines only: settle_attempt decides which count stands
    std::size_t echoed = 0;  // bytes of the tool's lines written to the log (tool_echo_bytes)
    std::string running;
    // A tool's report belongs to the case whose start marker came last in the tool's channel; after
    // the program-end marker (exit-time reports: leaks) it belongs to none, which `clean` fails too.
    const process_end end = run_child(
        spec, [&](const std::string& line) { std::cout << line << '\n'; },
        [&](const std::string& tool_line) {
          if (const std::optional<tool_marker> marker = parse_tool_marker(tool_line)) {
            running = marker->case_name;
            return;
          }
          // Echoed into the log up to a bound: the tool's own reports are a few lines a hazard, and the
          // rest could be the submission's (it can write into the channel).
          if (echoed < tool_echo_bytes) {
            std::cout << tool_line << '\n';
            echoed += tool_line.size() + 1;
            if (echoed >= tool_echo_bytes)
              std::cout << "kconform_runner: the tool's channel passed " << (tool_echo_bytes >> 20)
                        << " MiB in this process; its further lines are counted, not shown\n";
          }
          const std::size_t head = hazard_head_at(tool_line);
          if (head == std::string::npos) return;
          // Every name outside the batch counts alike (outside any case), so under one key: forged
          // markers of made-up names (the submission can write into this channel) add no entries.
          const bool outside = in_batch.count(running) == 0;
          ++hazards[outside ? std::string() : running];
          if (outside) outside_heads.quote(shown_text(tool_line.substr(head), quoted_line_bytes));  // not what came before
        });
    unit.launch_seconds += end.launch_seconds;
    unit.exit_seconds += end.exit_seconds;
    if (!spec.tool_log.empty()) std::filesystem::remove(spec.tool_log);
    std::cout.flush();

    progress_records records = parse_progress(read_file(scratch));
    // What this process reported; settle_attempt decides what of it stands (retried_attempts.hpp).
    attempt_reports reports;
    const std::string tool = o.tool.empty() ? "the sanitizer" : o.tool;
    for (case_result& r : records.ended) {
      if (in_batch.count(r.name) == 0 || results.count(r.name) != 0) continue;
      r.attempt = unit.processes;
      const std::size_t seen = hazards[r.name];
      if (o.sanitizer == "clean" && seen > 0) {
        // Kept even when the case failed for another reason too (memcheck stops a kernel at its first
        // bad access, which surfaces as a launch failure): the tool's finding is what its score reads.
        const std::string finding =
            tool + " reported " + std::to_string(seen) + " hazard(s) during this case (its report is in the log)";
        r.message = r.status == case_status::failed ? r.message + "\n" + finding : finding;
        r.status = case_status::failed;
      } else if (o.sanitizer == "expect-hazard" && r.status != case_status::skipped) {
        // The tool's own verdict decides; the case may fail for it (memcheck stops a kernel at its
        // first bad access, which then surfaces as a launch failure).
        if (seen > 0) {
          r.status = case_status::passed;
          r.message = "CAUGHT: " + tool + " reported " + std::to_string(seen) + " hazard(s) for this known-bad row";
        } else {
          r.message = "MISSED: " + tool + " reported nothing for this known-bad row: the suite has a hole" +
                      (r.status == case_status::failed ? "\n(the case also failed: " + r.message + ")" : std::string());
          r.status = case_status::failed;
        }
      }
      reports.cases.push_back(r);
    }
    for (const auto& [name, count] : hazards)
      if (in_batch.count(name) == 0) reports.hazards_outside_cases += count;
    const std::string& died_in = records.started_not_ended;
    const bool died_in_batch = !died_in.empty() && in_batch.count(died_in) != 0 && results.count(died_in) == 0 &&
                               std::none_of(reports.cases.begin(), reports.cases.end(),
                                            [&](const case_result& r) { return r.name == died_in; });
    if (died_in_batch) {
      case_result r = died_in_case(died_in, end, unit.processes);
      // A process that opened its GPU in this case and died in it (a hang-bound student's first case)
      // still says what its start-up took.
      if (!records.unclaimed_device_open_seconds.empty())
        r.properties.emplace_back(progress::device_open_property, records.unclaimed_device_open_seconds);
      if (const std::size_t seen = hazards[died_in]; o.sanitizer == "clean" && seen > 0)
        r.message += "\n" + tool + " reported " + std::to_string(seen) + " hazard(s) during this case";
      reports.cases.push_back(r);
    }
    std::size_t reported = reports.cases.size();  // kept, or set aside to run again
    const settled_attempt settled = settle_attempt(reports, retried, oom_retries, list_starved);
    for (const case_result& r : settled.kept) {
      results[r.name] = r;
      if (!budget.active() || !is_hang(r)) continue;
      // A case the process died in was killed at the runner's deadline: charged at most 12 s, so a
      // unit given a longer deadline for its work (the performance case's 60 s, for timing) does not
      // spend a submission's whole budget in one hang. Else the program's own watchdog ended it (same
      // variable, same default).
      budget.spend(unit.name, r.name, died_in_batch && r.name == died_in ? std::min(case_timeout(o), 12.0)
                                                                         : kc::kernel_deadline_seconds());
    }
    // The lines go with the count they explain (none with a process set aside for a retry).
    elsewhere.add(settled.hazards_outside_cases, outside_heads);
    deferred_elsewhere.add(settled.hazards_outside_deferred, outside_heads);
    deferred.insert(settled.deferred.begin(), settled.deferred.end());
    if (settled.set_aside()) {
      unsigned pause_s = 0;
      for (const std::string& name : settled.retried) {
        std::cout << "kconform_runner: " << name << " failed out of device memory (attempt " << retried[name] + 1
                  << "); running it again in a fresh process (KCONFORM_OOM_RETRIES=" << oom_retries << ")\n";
        ++retried[name];
        pause_s = std::max(pause_s, 2u << std::min<std::size_t>(retried[name] - 1, 4));
      }
      rerun_after_retry.insert(settled.rerun.begin(), settled.rerun.end());
      std::cout << "kconform_runner: process " << unit.processes << " is set aside from " << settled.retried.front()
                << " on: " << settled.rerun.size() << " case(s) it ran after that run again, and "
                << reports.hazards_outside_cases << " tool report(s) outside any case are not counted\n";
      // Let the process that took the memory be killed or finish: 2 s, then 4 s, 8 s. A neighbour
      // that hoards again in each fresh process (one per case until its hang streak ends its unit)
      // fills the device in bursts for some seconds, so the pauses grow.
      ::sleep(pause_s);
    }
    // A grading run (KCONFORM_HANG_STREAK=k) stops after k consecutive hung cases: a kernel that
    // spins on every input would otherwise cost a deadline and a fresh process per case. The rest
    // of the unit fails as not run, never passes.
    // With --units each unit keeps its own count and a streak stops that unit's cases only
    // (hang_streak.hpp); else one count for the run.
    if (const std::size_t streak = hang_streak_limit(); streak > 0) {
      const auto key_of = [&](const std::string& name) { return o.units.empty() ? std::string() : unit_of[name]; };
      const std::map<std::string, hang_streak> stopped = streaks_at_limit(todo, results, key_of, streak);
      reported += settle_not_run(todo, results, unit.processes, case_status::failed,
                                 [&](const std::string& name) -> std::optional<std::string> {
                                   const auto at_limit = stopped.find(key_of(name));
                                   if (at_limit == stopped.end()) return std::nullopt;
                                   // Worded by how the last of them ended (tools/grade_report classifies the words).
                                   return "the " + std::to_string(at_limit->second.cases) + " cases before it in this unit each " +
                                          (at_limit->second.memory_kill ? "passed the device memory limit" : "hung") +
                                          " (KCONFORM_HANG_STREAK=" + std::to_string(streak) +
                                          "), so the runner stopped starting fresh processes for it";
                                 });
    }
    // A grading run's sanitizer unit (KCONFORM_TOOL_UNTIL_FINDING=1, `clean`) ends at its tool's
    // first finding: a tool is scored once for the unit, clean or not (tools/grade_report/
    // run_grade.cpp, score_sanitizer), so no later case can change its verdict, and under memcheck
    // each case an out-of-bounds write faulted had cost a fresh process and a tool's start (issue
    // 33: ATAX on an H100, 5-7 s each). The cases left are skipped, saying why: never passed.
    // Only after a process whose reports all stand: one set aside for an out-of-memory retry runs
    // its cases from the retried one on again, as they would have run alone (a finding it kept
    // before that case still counts, and the rule applies when the retry's process ends), so a
    // neighbour's memory cannot change which cases run. One unit a run: under --units a finding
    // would stop the other units' cases too. Skipped cases spend none of the run's hang budget.
    if (o.sanitizer == "clean" && tool_until_finding() && o.units.empty()) {
      // Not a finding in a deferred case (one run again alone after the batch, which replaces its
      // verdict): it must not end the unit and leave the cases after it unchecked, when the run alone
      // may find it clean (a submission can fake a full device in one case and hide a later hazard).
      for (const case_result& r : settled.kept)
        if (tool_finding.empty() && r.status == case_status::failed && hazards[r.name] > 0 && deferred.count(r.name) == 0)
          tool_finding = "in " + r.name;
      if (tool_finding.empty() && settled.hazards_outside_cases > 0) tool_finding = "outside any case";
      if (!tool_finding.empty() && !settled.set_aside()) {
        const std::string reason = tool + " already reported a hazard (" + tool_finding +
                                   "), which settles its verdict: a tool is scored once for the unit "
                                   "(KCONFORM_TOOL_UNTIL_FINDING=1)";
        reported += settle_not_run(todo, results, unit.processes, case_status::skipped,
                                   [&](const std::string&) { return std::optional<std::string>(reason); });
      }
    }
    if (reported == 0) {
      // The process reported no case of its list: it exited before the first, or the list selected
      // nothing. Those cases were not run, which is a failure, never a pass. Every other attempt
      // resolves at least one case or retries one (each case a bounded number of times), so the loop
      // ends.
      settle_not_run(batch, results, unit.processes, case_status::failed, [&](const std::string&) {
        return std::optional<std::string>("the test process " + end.describe() + " without reporting this case");
      });
    }
  }
  // The list (list_starved only): the deferred cases, the one that failed out of device memory on its
  // every run "starved" and those its process ran after it "after_starved" (retried_attempts.hpp), and
  // the cases the memory watch killed.
  std::vector<std::pair<std::string, const char*>> memory_cases;
  for (const std::string& name : todo) {
    case_result& r = results[name];
    if (list_starved && is_memory_kill(r)) memory_cases.emplace_back(name, "memory_kill");
    if (deferred.count(name) != 0) {
      const bool starved = is_out_of_memory_from_outside(r);
      memory_cases.emplace_back(name, starved ? "starved" : "after_starved");
      r.message += (r.message.empty() ? "" : "\n") +
                   std::string(starved ? "(every run failed out of device memory: listed to be run again alone, after "
                                         "the batch, unless this submission's own processes passed their device "
                                         "memory limit; KCONFORM_MEMORY_STARVED_FILE)"
                                       : "(ran after a case that failed out of device memory on every run, in its "
                                         "process: listed to be run again alone with it, KCONFORM_MEMORY_STARVED_FILE)");
    }
    if (retried[name] > 0)
      r.message += (r.message.empty() ? "" : "\n") + std::string("(run ") + std::to_string(retried[name] + 1) +
                   " times: the earlier runs failed out of device memory)";
    else if (rerun_after_retry.count(name) != 0)
      r.message += (r.message.empty() ? "" : "\n") +
                   std::string("(run again: it first ran after a case that failed out of device memory, in the same "
                               "process)");
    unit.cases.push_back(r);
  }
  if (list_starved && !memory_cases.empty()) {
    // One write to a file opened for appending: the units of one submission end side by side, and
    // their lines must not interleave.
    std::string lines;
    for (const auto& [name, kind] : memory_cases) lines += unit.name + '\t' + name + '\t' + kind + '\n';
    const int fd = ::open(starved_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    const bool written = fd >= 0 && ::write(fd, lines.data(), lines.size()) == static_cast<ssize_t>(lines.size());
    if (fd >= 0) ::close(fd);
    if (!written) std::cerr << "kconform_runner: could not append to KCONFORM_MEMORY_STARVED_FILE=" << starved_file << '\n';
  }
  // A run again alone's own reports outside any case stand in place of those of the processes whose
  // cases it ran again (`.OutsideAnyCase.deferred`, which write_unit_reports drops from the first run's
  // report): never in place of the other processes' (`.OutsideAnyCase`), which stand.
  const auto outside_any_case = [&](const outside_reports& reports, const char* suffix, const std::string& why) {
    if (o.sanitizer != "clean" || reports.hazards == 0) return;
    case_result r;
    r.name = unit.name + suffix;
    // The message is the runner's own words only: a report reads a failure's kind from them, and the
    // tool's lines (which a submission can forge) must not change it.
    r.message = std::to_string(reports.hazards) + " hazard(s) were reported outside any case (start-up or exit)" + why;
    std::string lines;
    for (const std::string& line : reports.said) lines += (lines.empty() ? "" : "\n") + line;
    if (!lines.empty()) r.properties.emplace_back("tool_said", lines);
    unit.cases.push_back(r);
  };
  outside_any_case(elsewhere, rerun_alone() ? ".OutsideAnyCase.deferred" : ".OutsideAnyCase", "");
  outside_any_case(deferred_elsewhere, ".OutsideAnyCase.deferred",
                   " by a process in which a case failed out of device memory on every run: they stand unless its "
                   "cases run again alone after the batch, whose own such reports then replace them");
  unit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  unit.started_epoch = started_epoch;
  unit.gpu = resource_gpu_index();
  std::filesystem::remove(scratch);
  std::filesystem::remove(cases_file);
  if (o.units.empty()) {
    write_unit_reports(report_dir, unit);
  } else {
    // Each unit reported as its own (the report readers' layout): its cases, the processes they
    // shared (on the first unit only, below), and its cases' seconds plus an equal share of what no case took (listing, the processes'
    // starts and ends), so the units' seconds add up to the run's wall time, as separate units' do.
    std::vector<unit_outcome> parts;
    double in_cases = 0;
    for (const unit_choice& choice : o.units) {
      const std::string name = choice.reported();
      unit_outcome part;
      part.name = o.name_prefix + name;
      part.processes = unit.processes;
      part.started_epoch = unit.started_epoch;
      part.gpu = unit.gpu;
      for (const case_result& c : unit.cases)
        if (unit_of[c.name] == name) {
          part.cases.push_back(c);
          part.seconds += c.seconds;
        }
      in_cases += part.seconds;
      if (!part.cases.empty()) parts.push_back(std::move(part));
    }
    const double outside_share = parts.empty() ? 0 : std::max(0.0, unit.seconds - in_cases) / static_cast<double>(parts.size());
    // The processes they shared counted once, on the first: every reader adds units' processes up
    // (summary.md, report.html), and a pack of five read as five processes, the very count packs cut
    // (KCONFORM_PACK_SECONDS). Their shared start stays on each (class_timeline.sh groups by it).
    for (std::size_t k = 1; k < parts.size(); ++k) parts[k].processes = 0;
    for (unit_outcome& part : parts) {
      part.seconds += outside_share;
      // The processes' launches and exits, shared as the rest of what no case took.
      part.launch_seconds = unit.launch_seconds / static_cast<double>(parts.size());
      part.exit_seconds = unit.exit_seconds / static_cast<double>(parts.size());
      write_unit_reports(report_dir, part);
    }
  }

  const std::size_t failed = unit.count(case_status::failed), skipped = unit.count(case_status::skipped),
                    passed = unit.count(case_status::passed);
  for (const case_result& c : unit.cases)
    if (c.status == case_status::failed) std::cout << "[  FAILED  ] " << c.name << "\n    " << c.message.substr(0, 2000) << '\n';
  std::cout << unit.name << ": " << passed << " passed, " << failed << " failed, " << skipped << " skipped (of "
            << unit.cases.size() << " cases) in " << unit.processes << " process(es), " << unit.seconds << " s\n";
  if (failed > 0) return 1;
  if (passed == 0) {
    const std::string reason = unit.cases.front().message;
    std::cout << "SKIPPED: every case skipped: " << reason.substr(0, reason.find('\n')) << '\n';
    return 77;
  }
  return 0;
}

int list_units(const options& o) {
  for (const auto& [name, summary] : summarise_units(list_cases(o)))
    std::cout << name << '\t' << summary.cases << '\t' << static_cast<long long>(std::ceil(summary.cost)) << '\n';
  return 0;
}

}  // namespace
}  // namespace kc::runner

int main(int argc, char** argv) {
  const kc::runner::options o = kc::runner::parse(argc, argv);
  if (o.command == "list") return kc::runner::list_units(o);
  if (o.command == "run") return kc::runner::run_unit(o);
  kc::runner::usage("unknown command " + o.command);
}
