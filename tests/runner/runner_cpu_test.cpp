// The runner's parts that need no GPU process: the per-case deadline (run_child over a shell child), reading a test listing into units, reading the per-case
// records (a process that died mid-write included), the verdict for the case a process died in, the
// JUnit it writes, which sanitizer lines are hazards, and what of a process retried for device memory
// stands. The whole runner, with real crashing,
// hanging and exiting cases, is tested by runner_isolation_test.sh.
#include "fixtures/case_progress.hpp"
#include "fixtures/device_buffer.hpp"
#include "tools/runner/case_listing.hpp"
#include "tools/runner/case_records.hpp"
#include "tools/runner/child_process.hpp"
#include "tools/runner/hang_streak.hpp"
#include "tools/runner/memory_failures.hpp"
#include "tools/runner/retried_attempts.hpp"
#include "tools/runner/sanitizer_output.hpp"
#include "tools/runner/unit_report.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>

namespace kc::runner {
namespace {

// A shell child that writes the progress records of fixtures/case_progress.hpp as `script` says
// (append(record) writes one), run under the case timeout and start-up allowance given.
template <class Script>
process_end run_shell_child(const std::string& progress, double timeout, double allowance, Script script,
                            double gpu_hold_wait = child_spec{}.gpu_hold_wait_seconds) {
  std::filesystem::remove(progress);
  const auto append = [&](const std::string& record) { return "printf '" + record + "' >> '" + progress + "'; "; };
  child_spec spec;
  spec.argv = {"/bin/sh", "-c", script(append)};
  spec.progress_file = progress;
  spec.case_timeout_seconds = timeout;
  spec.startup_allowance_seconds = allowance;
  spec.gpu_hold_wait_seconds = gpu_hold_wait;
  return run_child(spec, [](const std::string&) {});
}

// A child that takes `startup` seconds before its first case's start record, finishes that case, and
// then hangs in its second.
process_end run_slow_starter(const std::string& progress, double startup, double timeout, double allowance) {
  return run_shell_child(progress, timeout, allowance, [&](const auto& append) {
    return "sleep " + std::to_string(startup) + "; " + append("S\\tSlow.First\\n") +
           append("E\\tSlow.First\\tpassed\\t1\\t\\t\\n") + append("S\\tSlow.Second\\n") + "exec sleep 60";
  });
}

// Grading's sanitizer runs start a sandboxed executor under the tool in their first case: 9.4-12 s
// on a loaded 4-GPU host against a 12 s case timeout (child_process.hpp). The start-up allowance
// covers a process's first case (and a later case's opening of the GPU, below); a case after it that
// hangs is killed at the case timeout.
TEST(RunnerDeadline, OnlyAProcesssFirstCaseGetsTheStartUpAllowance) {
  const std::string progress = (std::filesystem::temp_directory_path() /
                                ("kc_runner_deadline_" + std::to_string(::getpid()))).string();
  const auto started = std::chrono::steady_clock::now();
  const process_end allowed = run_slow_starter(progress, 1.5, 1.0, 3.0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const progress_records records = parse_progress([&] {
    std::ifstream in(progress);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
  ASSERT_EQ(records.ended.size(), 1u) << "the first case outlived its start-up and ended";
  EXPECT_EQ(records.started_not_ended, "Slow.Second");
  EXPECT_TRUE(allowed.killed_by_watchdog) << "the second case hangs: " << allowed.describe();
  EXPECT_EQ(allowed.startup_allowance_seconds, 0.0) << "no allowance past the first case";
  EXPECT_LT(seconds, 1.5 + 1.0 + 2.0) << "the hanging second case was killed at the case timeout (1 s), not later";
  EXPECT_NE(allowed.describe().find("within 1"), std::string::npos) << allowed.describe();

  // Without the allowance the same start-up is taken for a hang in the first case.
  const process_end refused = run_slow_starter(progress, 1.5, 1.0, 0.0);
  EXPECT_TRUE(refused.killed_by_watchdog);
  std::ifstream in(progress);
  EXPECT_FALSE(in.good() && in.peek() != std::ifstream::traits_type::eof()) << "killed before its first record";
  std::filesystem::remove(progress);
}

// A process whose first case needs no GPU opens it in a later case (runner_probe_test.cu: host probes,
// then ProbeGpu): that case's CUDA start-up (1 s alone on 4 H100s, up to 15 s with 40 processes
// starting at once) gets the allowance too, bracketed by its O and R records; what follows R does not.
// `opened` is the record that ends the opening: R with its seconds (the process's own GPU), or P (a
// grading program's executor, started in a later case after the last one was lost: case_progress.hpp).
process_end run_late_opener(const std::string& progress, double opening, double after_open, double timeout,
                            double allowance, const std::string& opened = "") {
  const std::string end_record = opened.empty() ? "R\\t" + std::to_string(opening) : opened;
  return run_shell_child(progress, timeout, allowance, [&](const auto& append) {
    return append("S\\tHost.First\\n") + append("E\\tHost.First\\tpassed\\t1\\t\\t\\n") + append("S\\tGpu.Second\\n") +
           append("O\\n") + "sleep " + std::to_string(opening) + "; " + append(end_record + "\\n") +
           "sleep " + std::to_string(after_open) + "; " + append("E\\tGpu.Second\\tpassed\\t1\\t\\t\\n");
  });
}

TEST(RunnerDeadline, OpeningTheGpuInALaterCaseGetsTheStartUpAllowance) {
  const std::string progress = (std::filesystem::temp_directory_path() /
                                ("kc_runner_opener_" + std::to_string(::getpid()))).string();
  const process_end allowed = run_late_opener(progress, 1.5, 0.2, 1.0, 3.0);
  EXPECT_FALSE(allowed.killed_by_watchdog) << "opening the GPU took 1.5 s of a 1 + 3 s start-up: " << allowed.describe();

  const process_end refused = run_late_opener(progress, 1.5, 0.2, 1.0, 0.0);
  EXPECT_TRUE(refused.killed_by_watchdog) << "without the allowance a 1.5 s opening passes a 1 s case timeout";

  // Past R the case's own work has the case timeout alone: 1.5 s of it is a hang.
  const auto started = std::chrono::steady_clock::now();
  const process_end after = run_late_opener(progress, 0.2, 1.5, 1.0, 3.0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_TRUE(after.killed_by_watchdog) << after.describe();
  EXPECT_EQ(after.startup_allowance_seconds, 0.0) << after.describe();
  EXPECT_LT(seconds, 0.2 + 1.0 + 1.0) << "killed at the case timeout after R, not the allowance";
  std::filesystem::remove(progress);
}

// Where a process's seconds went outside its cases (issue 33: a grading class's "other", half of each
// performance unit): before its first record (launch) and after its last, where that ended a case
// (exit). The script waits 0.4 s, runs one case, then waits 0.6 s before it exits; both records are
// timed by the progress file's modification time, not by the runner's looks.
TEST(RunnerTimes, AProcesssLaunchAndExitAreMeasured) {
  const std::string progress = (std::filesystem::temp_directory_path() /
                                ("kc_runner_launch_exit_" + std::to_string(::getpid()))).string();
  const process_end end = run_shell_child(progress, 10.0, 0.0, [&](const auto& append) {
    return "sleep 0.4; " + append("S\\tTimed.Case\\n") + append("E\\tTimed.Case\\tpassed\\t1\\t\\t\\n") + "sleep 0.6";
  });
  EXPECT_GE(end.launch_seconds, 0.35) << end.describe();
  EXPECT_LT(end.launch_seconds, 0.4 + 0.35) << "the first record seen more than a look late";
  EXPECT_GE(end.exit_seconds, 0.55);
  EXPECT_LT(end.exit_seconds, 0.6 + 0.35);
  // No record at all: everything was launch, no exit.
  const process_end silent = run_shell_child(progress, 10.0, 0.0, [](const auto&) { return std::string("sleep 0.3"); });
  EXPECT_GE(silent.launch_seconds, 0.25);
  EXPECT_EQ(silent.exit_seconds, 0.0);
  // Died in a case (its last record starts one): that case's time is not an exit's.
  const process_end died = run_shell_child(progress, 10.0, 0.0, [&](const auto& append) {
    return append("S\\tTimed.Dies\\n") + "sleep 0.3; exit 3";
  });
  EXPECT_EQ(died.exit_code, 3) << died.describe();
  EXPECT_EQ(died.exit_seconds, 0.0);
  EXPECT_LT(died.launch_seconds, 0.25) << "its first record came at once";
  std::filesystem::remove(progress);
}

// A grading program that lost its submission's executor (a crash, a sticky error) starts a fresh one
// in the next case that calls it: O and P bracket that start, which gets the allowance (an executor's
// start under a tool took 9.4-12 s beside three other students on an H100, against a 12 s case
// timeout); what follows P has the case timeout alone.
TEST(RunnerDeadline, StartingAFreshExecutorInALaterCaseGetsTheStartUpAllowance) {
  const std::string progress = (std::filesystem::temp_directory_path() /
                                ("kc_runner_executor_" + std::to_string(::getpid()))).string();
  const process_end allowed = run_late_opener(progress, 1.5, 0.2, 1.0, 3.0, "P");
  EXPECT_FALSE(allowed.killed_by_watchdog) << "the executor's start took 1.5 s of a 1 + 3 s allowance: " << allowed.describe();

  const process_end refused = run_late_opener(progress, 1.5, 0.2, 1.0, 0.0, "P");
  EXPECT_TRUE(refused.killed_by_watchdog) << "without the allowance a 1.5 s start passes a 1 s case timeout";

  const process_end after = run_late_opener(progress, 0.2, 1.5, 1.0, 3.0, "P");
  EXPECT_TRUE(after.killed_by_watchdog) << after.describe();
  EXPECT_EQ(after.startup_allowance_seconds, 0.0) << "past P the case's own work has the case timeout alone";
  std::filesystem::remove(progress);
}

// A grading performance case waits for its GPU hold while another's timing runs (W ... G,
// grading/performance_hold.hpp): the wait is not the case's own time, and is bounded by the hold
// allowance alone; after G the case's work has its timeout alone. A kill while waiting says so and
// never calls it a hang (tools/grade_report classifies "hang" as the student's).
process_end run_hold_waiter(const std::string& progress, double wait, double after, double timeout, double hold_wait) {
  return run_shell_child(
      progress, timeout, 0.0,
      [&](const auto& append) {
        return append("S\\tHost.First\\n") + append("E\\tHost.First\\tpassed\\t1\\t\\t\\n") + append("S\\tGrade.Timed\\n") +
               append("W\\n") + "sleep " + std::to_string(wait) + "; " + append("G\\t" + std::to_string(wait) + "\\n") +
               "sleep " + std::to_string(after) + "; " + append("E\\tGrade.Timed\\tpassed\\t1\\t\\t\\n");
      },
      hold_wait);
}

TEST(RunnerDeadline, AWaitForTheGpuHoldIsNotTheCasesOwnTime) {
  const std::string progress = (std::filesystem::temp_directory_path() /
                                ("kc_runner_hold_" + std::to_string(::getpid()))).string();
  const process_end waited = run_hold_waiter(progress, 1.5, 0.2, 0.5, 5.0);
  EXPECT_FALSE(waited.killed_by_watchdog) << "1.5 s waiting for the hold, past a 0.5 s timeout: " << waited.describe();

  const process_end too_long = run_hold_waiter(progress, 3.0, 0.2, 0.5, 1.0);
  EXPECT_TRUE(too_long.killed_by_watchdog) << "3 s waiting, past 0.5 + 1 s";
  EXPECT_TRUE(too_long.waiting_for_gpu_hold);
  EXPECT_NE(too_long.describe().find("for its GPU hold"), std::string::npos) << too_long.describe();
  EXPECT_EQ(too_long.describe().find("hang"), std::string::npos) << "not the student's hang: " << too_long.describe();
  const case_result charged = died_in_case("Grade.Timed", too_long, 1);
  const auto problem = std::find_if(charged.properties.begin(), charged.properties.end(),
                                    [](const auto& p) { return p.first == "grader_problem"; });
  EXPECT_NE(problem, charged.properties.end()) << "a kill while waiting is the grader's problem: " << charged.message;

  const process_end after = run_hold_waiter(progress, 0.2, 1.5, 0.5, 5.0);
  EXPECT_TRUE(after.killed_by_watchdog) << "past G, 1.5 s of the case's own work passes its 0.5 s timeout";
  EXPECT_FALSE(after.waiting_for_gpu_hold);
  EXPECT_EQ(after.startup_allowance_seconds, 0.0) << after.describe();
  const case_result own = died_in_case("Grade.Timed", after, 1);
  EXPECT_TRUE(std::none_of(own.properties.begin(), own.properties.end(),
                           [](const auto& p) { return p.first == "grader_problem"; }))
      << "a hang of the case's own work is the student's";
  std::filesystem::remove(progress);
}

// The reason a first case's hang gives names both parts of its deadline.
TEST(RunnerDeadline, AFirstCasesHangSaysItsDeadlineIncludedTheStartUp) {
  process_end end;
  end.killed_by_watchdog = true;
  end.timeout_seconds = 12;
  end.startup_allowance_seconds = 60;
  EXPECT_NE(end.describe().find("did not finish within 72 s (KCONFORM_CASE_TIMEOUT_S 12 s, and 60 s for its "
                                "process's start-up"),
            std::string::npos)
      << end.describe();
  end.startup_allowance_seconds = 0;
  EXPECT_NE(end.describe().find("did not finish within 12 s (KCONFORM_CASE_TIMEOUT_S)"), std::string::npos) << end.describe();
}

// A grading program lists its groups' cases interleaved (a1 b1 a2 ...). Run as one unit, the streak
// counts every case in order; with --units (a key per unit) group a's three hangs stop a, and b, whose
// own cases hung once, runs on.
TEST(RunnerStreak, PerUnitStreaksCountEachUnitsOwnCasesInOrder) {
  const std::vector<std::string> order = {"a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"};
  std::map<std::string, case_result> results;
  const auto set = [&](const std::string& name, bool hung) {
    case_result r;
    r.name = name;
    r.status = hung ? case_status::failed : case_status::passed;
    r.message = hung ? "hang: spun" : "";
    results[name] = r;
  };
  set("a1", true), set("b1", false), set("a2", true), set("b2", true), set("a3", true);  // b3 onward: not yet run
  const auto by_unit = [](const std::string& n) { return n.substr(0, 1); };
  const auto one_key = [](const std::string&) { return std::string(); };
  const auto per_unit = streaks_at_limit(order, results, by_unit, 3);
  ASSERT_EQ(per_unit.size(), 1u);
  EXPECT_EQ(per_unit.count("a"), 1u);
  EXPECT_EQ(per_unit.at("a").cases, 3u);
  const auto whole = streaks_at_limit(order, results, one_key, 3);
  ASSERT_EQ(whole.count(""), 1u) << "one count over a1 b1 a2 b2 a3: b1 resets it, a2 b2 a3 make 3";
  EXPECT_EQ(whole.at("").cases, 3u);
  set("b1", true);  // now b's count is b1 b2 = 2, below the limit
  EXPECT_EQ(streaks_at_limit(order, results, by_unit, 3).count("b"), 0u);
  EXPECT_TRUE(streaks_at_limit(order, results, by_unit, 0).empty()) << "limit 0: no streak stops anything";
}

TEST(RunnerListing, ReadsUnitsAndCostsFromThePrintedParameters) {
  const std::string listing =
      "Running main() from somewhere\n"
      "Matmul/Conformance.\n"
      "  MatchesReference/SharedTiledM33N65K17B16TW16Real  # GetParam() = unit:SharedTiled cost:1.5\n"
      "  MatchesReference/SharedTiledM4096N4096K4096B16TW16Integer  # GetParam() = unit:SharedTiled.Large cost:4097\n"
      "Matmul/KnownBadMatmul.\n"
      "  IsRejectedByTheSuite/MM1AsWritten  # GetParam() = 0x55d0c0ffee00\n"
      "Probe.\n"
      "  Segfaults\n";
  const std::vector<listed_case> cases = parse_gtest_listing(listing);
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[0].name, "Matmul/Conformance.MatchesReference/SharedTiledM33N65K17B16TW16Real");
  EXPECT_EQ(cases[0].unit, "SharedTiled");
  EXPECT_DOUBLE_EQ(cases[0].cost, 1.5);
  EXPECT_EQ(cases[1].unit, "SharedTiled.Large");
  EXPECT_EQ(cases[2].unit, "KnownBadMatmul") << "no unit printed: the fixture's name";
  EXPECT_EQ(cases[3].name, "Probe.Segfaults");
  EXPECT_EQ(cases[3].unit, "Probe");
  const auto units = summarise_units(cases);
  EXPECT_EQ(units.at("SharedTiled").cases, 1u);
  EXPECT_DOUBLE_EQ(units.at("SharedTiled.Large").cost, 4097);
}

// The listing kept between the runner's calls is used only for the program it was recorded for.
TEST(RunnerListing, CachedListingServesOnlyTheProgramItWasRecordedFor) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("kc_listing_cache_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string exe = (dir / "program").string(), cache = (dir / "program.listing").string();
  std::ofstream(exe) << "a build";
  const std::string listing = "Suite.\n  Case  # GetParam() = unit:U cost:1\n";
  EXPECT_FALSE(read_listing_cache(cache, exe).has_value()) << "nothing recorded yet";
  ASSERT_TRUE(write_listing_cache(cache, exe, listing));
  EXPECT_EQ(read_listing_cache(cache, exe).value_or("(none)"), listing);
  EXPECT_FALSE(read_listing_cache(cache, (dir / "other").string()).has_value()) << "another program, absent";
  std::ofstream(exe, std::ios::app) << ", rebuilt";  // a new build: other size and modification time
  EXPECT_FALSE(read_listing_cache(cache, exe).has_value()) << "a listing of the old build";
  ASSERT_TRUE(write_listing_cache(cache, exe, listing + "  Second  # GetParam() = unit:U cost:1\n"));
  EXPECT_EQ(parse_gtest_listing(read_listing_cache(cache, exe).value_or("")).size(), 2u);
  std::ofstream(cache, std::ios::trunc) << "not a cache\n" << program_fingerprint(exe) << '\n' << listing;
  EXPECT_FALSE(read_listing_cache(cache, exe).has_value()) << "a file that is not a recorded listing";
  EXPECT_FALSE(write_listing_cache(cache, (dir / "missing").string(), listing)) << "no program, no fingerprint";
  EXPECT_FALSE(write_listing_cache((dir / "no_such_dir" / "x.listing").string(), exe, listing));
  std::filesystem::remove_all(dir);
}

TEST(RunnerRecords, EscapingRoundTrips) {
  const std::string text = "line one\n\tindented \\ backslash";
  EXPECT_EQ(progress::unescape_field(progress::escape_field(text)), text);
  EXPECT_EQ(progress::escape_field(text).find('\n'), std::string::npos);
  EXPECT_EQ(progress::escape_field(text).find('\t'), std::string::npos);
}

TEST(RunnerRecords, FindsTheCaseAProcessDiedIn) {
  const std::string text = "S\tA.One\n"
                           "E\tA.One\tpassed\t12\tgpu=NVIDIA H200\t\n"
                           "S\tA.Two\n"
                           "E\tA.Two\tfailed\t3\t\t" + progress::escape_field("x.cpp:1: wrong\nsecond line") + "\n"
                           "S\tA.Three\n"
                           "E\tA.Thr";  // died mid-write: ignored
  const progress_records r = parse_progress(text);
  ASSERT_EQ(r.ended.size(), 2u);
  EXPECT_EQ(r.ended[0].status, case_status::passed);
  EXPECT_DOUBLE_EQ(r.ended[0].seconds, 0.012);
  ASSERT_EQ(r.ended[0].properties.size(), 1u);
  EXPECT_EQ(r.ended[0].properties[0].second, "NVIDIA H200");
  EXPECT_EQ(r.ended[1].status, case_status::failed);
  EXPECT_EQ(r.ended[1].message, "x.cpp:1: wrong\nsecond line");
  EXPECT_EQ(r.started_not_ended, "A.Three");
}

// The process's CUDA start-up (the O and R records around it) is kept on the case it happened in.
TEST(RunnerRecords, TheGpusOpeningIsRecordedOnTheCaseThatOpenedIt) {
  const progress_records r = parse_progress("S\tA.One\nO\nR\t0.412000\nE\tA.One\tpassed\t500\tgroup=x\t\n"
                                            "S\tA.Two\nE\tA.Two\tpassed\t1\t\t\n");
  ASSERT_EQ(r.ended.size(), 2u);
  ASSERT_EQ(r.ended[0].properties.size(), 2u);
  EXPECT_EQ(r.ended[0].properties[1].first, "device_open_seconds");
  EXPECT_EQ(r.ended[0].properties[1].second, "0.412000");
  EXPECT_TRUE(r.ended[1].properties.empty());
  // Opened before the first case (a test environment's set-up): kept on the first case.
  const progress_records early = parse_progress("O\nR\t0.2\nS\tA.One\nE\tA.One\tpassed\t5\t\t\n");
  ASSERT_EQ(early.ended.size(), 1u);
  ASSERT_EQ(early.ended[0].properties.size(), 1u);
  EXPECT_EQ(early.ended[0].properties[0].second, "0.2");
  // A watchdog's record ends the case that opened the GPU: it takes the seconds, gtest's later one is dropped.
  const progress_records hung = parse_progress("S\tA.Hang\nO\nR\t0.3\nE\tA.Hang\tfailed\t0\t\thang\nE\tA.Hang\tpassed\t9\t\t\n");
  ASSERT_EQ(hung.ended.size(), 1u);
  ASSERT_EQ(hung.ended[0].properties.size(), 1u);
  EXPECT_EQ(hung.ended[0].properties[0].second, "0.3");
  EXPECT_TRUE(hung.unclaimed_device_open_seconds.empty());
  // The process died in the case that opened the GPU: the seconds wait for the runner's record of it.
  const progress_records died = parse_progress("S\tA.One\nE\tA.One\tpassed\t5\t\t\nS\tA.Two\nO\nR\t0.7\n");
  EXPECT_EQ(died.started_not_ended, "A.Two");
  EXPECT_EQ(died.unclaimed_device_open_seconds, "0.7");
  EXPECT_TRUE(died.ended[0].properties.empty());
  // An executor's start (O ... P) is not the process's CUDA start-up: no device_open_seconds from it.
  const progress_records executor = parse_progress("S\tA.One\nO\nR\t0.4\nO\nP\nE\tA.One\tpassed\t5\t\t\n"
                                                   "S\tA.Two\nO\nP\nE\tA.Two\tfailed\t9\t\tlost\n");
  ASSERT_EQ(executor.ended.size(), 2u);
  ASSERT_EQ(executor.ended[0].properties.size(), 1u);
  EXPECT_EQ(executor.ended[0].properties[0].second, "0.4");
  EXPECT_TRUE(executor.ended[1].properties.empty());
  EXPECT_TRUE(executor.unclaimed_device_open_seconds.empty());
}

TEST(RunnerRecords, AWatchdogsRecordWinsOverALaterOne) {
  const progress_records r = parse_progress("S\tA.Hang\nE\tA.Hang\tfailed\t0\t\thang: waited\nE\tA.Hang\tpassed\t9\t\t\n");
  ASSERT_EQ(r.ended.size(), 1u);
  EXPECT_EQ(r.ended[0].status, case_status::failed);
  EXPECT_TRUE(r.started_not_ended.empty());
}

TEST(RunnerVerdicts, DyingInACaseIsAlwaysAFailureThatSaysHow) {
  process_end exit_zero;
  EXPECT_EQ(died_in_case("A.B", exit_zero, 1).status, case_status::failed);
  EXPECT_NE(died_in_case("A.B", exit_zero, 1).message.find("exited with status 0"), std::string::npos);
  EXPECT_NE(died_in_case("A.B", exit_zero, 1).message.find("never a pass"), std::string::npos);
  process_end segv;
  segv.signalled = true;
  segv.signal = SIGSEGV;
  EXPECT_NE(died_in_case("A.B", segv, 2).message.find("signal 11"), std::string::npos);
  process_end hang;
  hang.killed_by_watchdog = true;
  hang.timeout_seconds = 30;
  EXPECT_NE(died_in_case("A.B", hang, 3).message.find("did not finish within 30 s"), std::string::npos);
  process_end watchdog_exit;
  watchdog_exit.exit_code = progress::hang_exit_code;
  EXPECT_NE(watchdog_exit.describe().find("a hang"), std::string::npos);
}

TEST(RunnerReport, JUnitHasEveryCaseWithItsVerdictAndEscapedText) {
  unit_outcome unit;
  unit.name = "matmul.conformance.SharedTiled";
  unit.processes = 2;
  unit.cases.push_back({"Matmul/Conformance.MatchesReference/A", case_status::passed, 0.5, {{"gpu", "H200"}, {"input_seconds", "0.25"}}, "", 1});
  unit.cases.push_back({"Matmul/Conformance.MatchesReference/B", case_status::failed, 0.1, {{"input_seconds", "0.125"}}, "expected <1> & got \"2\"\nmore", 1});
  unit.cases.push_back({"Matmul/Conformance.MatchesReference/C", case_status::skipped, 0, {}, "no GPU", 2});
  const std::string xml = junit_xml(unit);
  EXPECT_NE(xml.find("tests=\"3\" failures=\"1\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("classname=\"Matmul/Conformance\" name=\"MatchesReference/B\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("expected &lt;1&gt; &amp; got &quot;2&quot;"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"no GPU\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"processes\" value=\"2\""), std::string::npos) << xml;
  EXPECT_EQ(stats_line(unit).rfind("matmul.conformance.SharedTiled\t3\t1\t1\t1\t2\t", 0), 0u) << stats_line(unit);
  // Then the cases' seconds spent making inputs and references added up, and the unit's start.
  unit.started_epoch = 1764000000.25;
  const std::string line = stats_line(unit);
  EXPECT_NE(line.find("\t0.38\t1764000000.25\t"), std::string::npos) << line;
  // Then the unit's seconds outside its cases (2.5 s, of which the cases took 0.6 s).
  EXPECT_NE(line.find("\t1764000000.25\t0.00\t"), std::string::npos) << line;  // no unit time recorded: never negative
  unit.seconds = 2.5;
  const std::string timed = stats_line(unit);
  EXPECT_NE(timed.find("\t1764000000.25\t1.90\t"), std::string::npos) << timed;
  // Last, the cases' seconds waiting for the GPU, downloading, comparing, allocating and on guard
  // zones, added up per kind.
  EXPECT_TRUE(timed.ends_with("\t1.90\t0.00\t0.00\t0.00\t0.00\t0.00\t-\t0.00")) << timed << " (no GPU named: \"-\")";
  unit.cases[0].properties.push_back({"gpu_wait_seconds", "0.125"});
  unit.cases[1].properties.push_back({"gpu_wait_seconds", "0.375"});
  unit.cases[1].properties.push_back({"download_seconds", "0.25"});
  unit.cases[0].properties.push_back({"compare_seconds", "0.07"});
  unit.cases[2].properties.push_back({"allocate_seconds", "0.03"});
  unit.cases[1].properties.push_back({"guards_seconds", "0.5"});
  unit.cases[2].properties.push_back({"guards_seconds", "0.25"});
  unit.gpu = "2";
  // And after its GPU, the cases' seconds opening it (the first case of each of its processes).
  unit.cases[0].properties.push_back({"device_open_seconds", "0.5"});
  unit.cases[2].properties.push_back({"device_open_seconds", "0.25"});
  const std::string split = stats_line(unit);
  EXPECT_TRUE(split.ends_with("\t1.90\t0.50\t0.25\t0.07\t0.03\t0.75\t2\t0.75")) << split << " (its GPU, then opening it)";
}

// grade.sh's run again alone reads the unit's first report back and puts the rerun's cases in place of
// theirs: the report reads back as written, and the merge keeps every other case, in order.
TEST(RunnerReport, AReportReadsBackAndARerunReplacesOnlyItsCases) {
  unit_outcome first;
  first.name = "grade.large_sizes";
  first.processes = 3;
  first.seconds = 4.5;
  first.started_epoch = 1764000000.5;
  first.launch_seconds = 0.25;
  first.exit_seconds = 0.125;
  first.cases.push_back({"Grade/A.B/N1", case_status::passed, 0.5, {{"input_seconds", "0.25"}}, "", 1});
  first.cases.push_back({"Grade/A.B/N2", case_status::failed, 0.1, {}, "does not fit: \"256 MiB\"\n(run 4 times)", 2});
  first.cases.push_back({"Grade/A.B/N3", case_status::skipped, 0, {}, "not run: x", 3});
  const std::optional<unit_outcome> back = unit_from_json(unit_json(first));
  ASSERT_TRUE(back);
  EXPECT_EQ(unit_json(*back), unit_json(first));
  EXPECT_FALSE(unit_from_json("{\"cases\": []}"));
  EXPECT_FALSE(unit_from_json("not json"));

  unit_outcome rerun;
  rerun.name = first.name;
  rerun.processes = 1;
  rerun.seconds = 1.5;
  rerun.launch_seconds = 0.5;
  rerun.cases.push_back({"Grade/A.B/N2", case_status::passed, 0.2, {{"gpu", "H100"}}, "", 1});
  const unit_outcome merged = with_cases_replaced(*back, rerun, "(alone)");
  ASSERT_EQ(merged.cases.size(), 3u);
  EXPECT_EQ(merged.cases[0].name, "Grade/A.B/N1");
  EXPECT_EQ(merged.cases[1].name, "Grade/A.B/N2");
  EXPECT_EQ(merged.cases[1].status, case_status::passed);
  EXPECT_EQ(merged.cases[1].message, "(alone)");
  EXPECT_EQ(merged.cases[2].status, case_status::skipped);
  EXPECT_EQ(merged.processes, 4);
  EXPECT_DOUBLE_EQ(merged.seconds, 6.0);
  EXPECT_DOUBLE_EQ(merged.launch_seconds, 0.75);
  EXPECT_DOUBLE_EQ(merged.started_epoch, first.started_epoch);
  // A case the first report lacks is added at the end.
  rerun.cases[0].name = "Grade/A.B/N4";
  EXPECT_EQ(with_cases_replaced(*back, rerun, "").cases.back().name, "Grade/A.B/N4");
}

// The GPU a unit ran on, as the host numbers it: CTest's resource id, through CUDA_VISIBLE_DEVICES.
TEST(RunnerReport, AUnitsGpuIsCTestsIdThroughTheVisibleDevices) {
  const auto with = [](const char* group, const char* visible) {
    group != nullptr ? ::setenv("CTEST_RESOURCE_GROUP_0_GPUS", group, 1) : ::unsetenv("CTEST_RESOURCE_GROUP_0_GPUS");
    visible != nullptr ? ::setenv("CUDA_VISIBLE_DEVICES", visible, 1) : ::unsetenv("CUDA_VISIBLE_DEVICES");
    return resource_gpu_index();
  };
  const char* saved = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::string kept = saved != nullptr ? saved : "";
  EXPECT_EQ(with("id:3,slots:10", nullptr), "3");
  EXPECT_EQ(with("id:1,slots:10", "4,6"), "6");
  EXPECT_EQ(with("id:2,slots:10", "4,6"), "") << "an id past the visible list names no GPU";
  EXPECT_EQ(with(nullptr, nullptr), "");
  EXPECT_EQ(with("slots:10", nullptr), "");
  ::unsetenv("CTEST_RESOURCE_GROUP_0_GPUS");
  saved != nullptr ? ::setenv("CUDA_VISIBLE_DEVICES", kept.c_str(), 1) : ::unsetenv("CUDA_VISIBLE_DEVICES");
}

TEST(RunnerSanitizer, CountsHazardHeadsNotDetailsOrSummaries) {
  EXPECT_TRUE(is_hazard_head("========= Invalid __global__ read of size 4 bytes"));
  EXPECT_TRUE(is_hazard_head("========= Error: Race reported between Write access at k+0x10"));
  EXPECT_TRUE(is_hazard_head("========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x0"));
  EXPECT_TRUE(is_hazard_head("========= Uninitialized __global__ memory read of size 4 bytes"));
  EXPECT_FALSE(is_hazard_head("=========     at reduce_kernel(float*)+0x1f0 in reduce.cu:12"));
  EXPECT_FALSE(is_hazard_head("========= ERROR SUMMARY: 0 errors"));
  EXPECT_FALSE(is_hazard_head("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"));
  EXPECT_FALSE(is_hazard_head("========= COMPUTE-SANITIZER"));
  EXPECT_FALSE(is_hazard_head("[ RUN      ] Reduction/OnePass.MatchesReference/X"));
  // Text written into the channel without a newline is glued in front of the tool's next report: the
  // report still counts (and the forged text alone does not make a detail line one).
  EXPECT_TRUE(is_hazard_head("junk========= Error: Race reported between Write access at k+0x10"));
  EXPECT_TRUE(is_hazard_head("========= x ========= Leaked 4100 bytes at 0x7f534cc00000"));
  EXPECT_FALSE(is_hazard_head("junk=========     at reduce_kernel(float*)+0x1f0 in reduce.cu:12"));
  EXPECT_FALSE(is_hazard_head("junk========= "));
  EXPECT_EQ(hazard_head_at("junk========= Leaked 4 bytes"), 4u);
  EXPECT_EQ(hazard_head_at("=========     at k"), std::string::npos);
}

// The case markers, found behind text glued in front of them as the hazard heads are.
TEST(RunnerSanitizer, ACaseMarkerIsFoundBehindGluedText) {
  const std::string start = progress::tool_case_start_marker;
  ASSERT_TRUE(parse_tool_marker(start + "A.B/N33"));
  EXPECT_EQ(parse_tool_marker("junk" + start + "A.B/N33")->case_name, "A.B/N33");
  ASSERT_TRUE(parse_tool_marker(std::string("junk") + progress::tool_program_end_marker));
  EXPECT_EQ(parse_tool_marker(std::string("junk") + progress::tool_program_end_marker)->case_name, "");
  EXPECT_FALSE(parse_tool_marker("========= Error: Race reported"));
}

// What reports may show of the tool's lines (which a submission can forge): valid UTF-8 as it is,
// everything that could act on a terminal or a page as '?', cut on a character's boundary.
TEST(RunnerSanitizer, ShownTextKeepsValidUtf8AndNothingThatActsOnAReader) {
  EXPECT_EQ(shown_text("========= Leaked 4100 bytes", 300), "========= Leaked 4100 bytes");
  EXPECT_EQ(shown_text("caf\xc3\xa9 \xe2\x9c\x93\tok", 300), "caf\xc3\xa9 \xe2\x9c\x93\tok");
  EXPECT_EQ(shown_text("a\x1b[2Jb\rc\x7f", 300), "a?[2Jb?c?");                // C0, DEL
  EXPECT_EQ(shown_text("a\xc2\x9b" "31mb", 300), "a?31mb");                      // C1 (8-bit CSI)
  EXPECT_EQ(shown_text("a\xe2\x80\xae" "b\xe2\x81\xa6" "c", 300), "a?b?c");   // bidi override, isolate
  EXPECT_EQ(shown_text("a\xff\xfe" "b\xc3", 300), "a??b?");                    // invalid, cut short
  EXPECT_EQ(shown_text("a\xc0\xaf" "b\xed\xa0\x80" "c", 300), "a??b???c");    // overlong, surrogate
  EXPECT_EQ(shown_text("ab\xc3\xa9", 3), "ab [...]");                           // never half a character
  EXPECT_EQ(shown_text(std::string(400, 'x'), 300), std::string(300, 'x') + " [...]");
}

// Issue 19: a correct submission among neighbours lost cases to "allocation of 16 MiB does not fit:
// the device has 69 MiB free" (the fixtures' own words, which the retry did not know) while a hoard
// past the in-process guard held the device; every way of saying "the device was full" is retried,
// and only those.
TEST(RunnerMemoryFailures, EveryWordingOfAFullDeviceIsRetriedAndTheLimitsAreNot) {
  const auto failed = [](std::string message) {
    case_result r;
    r.name = "Grade/Conformance.MatchesReference/SubmissionM2048N2048K2048B16TW16Integer";
    r.message = std::move(message);
    return r;
  };
  for (const std::string full :
       {std::string("C++ exception with description \"allocation of 16 MiB ") + kc::device_full_words +
            " 69 MiB free of 81079 MiB\" thrown in the test body.",
        std::string("cudaMalloc failed: cudaErrorMemoryAllocation (out of memory)"),
        std::string("could not open device 0: cudaErrorMemoryAllocation"),
        std::string("cublasCreate: CUBLAS_STATUS_ALLOC_FAILED")}) {
    EXPECT_TRUE(is_out_of_memory_from_outside(failed(full))) << full;
    EXPECT_FALSE(is_memory_kill(failed(full))) << full;
    case_result passed = failed(full);
    passed.status = case_status::passed;
    EXPECT_FALSE(is_out_of_memory_from_outside(passed)) << full;
  }
  // The case's own process past its limit: the guard's refusal and the runner's kill are the
  // submission's doing, never retried.
  const case_result refused = failed("cudaMalloc of 6 GiB refused: past the device memory limit of 4096 MiB "
                                     "(cudaErrorMemoryAllocation)");
  EXPECT_FALSE(is_out_of_memory_from_outside(refused));
  const case_result killed = failed("its process held 9000 MiB of device memory, past the device memory limit of "
                                    "8192 MiB: the runner killed it");
  EXPECT_FALSE(is_out_of_memory_from_outside(killed));
  EXPECT_TRUE(is_memory_kill(killed));
  EXPECT_FALSE(is_out_of_memory_from_outside(failed("C: 65 of 1089 C(s) differ from the reference")));
}

case_result reported(const std::string& name, case_status status, const std::string& message = "") {
  case_result r;
  r.name = name;
  r.status = status;
  r.message = message;
  r.attempt = 1;
  return r;
}

// Issue 33: a correct submission's memcheck unit lost the tool to its first process, which failed out
// of device memory and reported a finding outside any case; the rerun passed both cases. Nothing a
// failed-and-retried attempt reports from the retried case on is scored.
TEST(RunnerRetries, AProcessRetriedForDeviceMemoryTakesItsFindingsWithIt) {
  attempt_reports first;
  const std::string full = "could not open device 0: cudaErrorMemoryAllocation";
  first.cases = {reported("Grade/Memcheck.N33", case_status::failed, full),
                 reported("Grade/Memcheck.N1025", case_status::failed, full)};
  first.hazards_outside_cases = 1;
  const settled_attempt settled = settle_attempt(first, {}, 3);
  EXPECT_TRUE(settled.set_aside());
  EXPECT_TRUE(settled.kept.empty());
  EXPECT_EQ(settled.retried, (std::vector<std::string>{"Grade/Memcheck.N33", "Grade/Memcheck.N1025"}));
  EXPECT_EQ(settled.hazards_outside_cases, 0u) << "the retried process's report outside any case is not counted";
}

// The cases that ended before the retried one began stand; the ones after it ran in what its failure
// left behind (a wrong value there may be the failed allocation's doing), so they run again.
TEST(RunnerRetries, CasesBeforeTheRetriedOneStandAndCasesAfterItRunAgain) {
  attempt_reports reports;
  reports.cases = {reported("A.Before", case_status::passed),
                   reported("A.Wrong", case_status::failed, "element 3: expected 4, got 5"),
                   reported("A.Full", case_status::failed,
                            "allocation of 16 MiB " + std::string(kc::device_full_words) + " 69 MiB free"),
                   reported("A.After", case_status::failed, "element 0: expected 1, got 0"),
                   reported("A.DiedIn", case_status::failed, "killed by signal 11 (SIGSEGV) while running this case")};
  reports.hazards_outside_cases = 2;
  const settled_attempt settled = settle_attempt(reports, {}, 3);
  ASSERT_EQ(settled.kept.size(), 2u);
  EXPECT_EQ(settled.kept[0].name, "A.Before");
  EXPECT_EQ(settled.kept[1].name, "A.Wrong");
  EXPECT_EQ(settled.retried, std::vector<std::string>{"A.Full"});
  EXPECT_EQ(settled.rerun, (std::vector<std::string>{"A.After", "A.DiedIn"}));
  EXPECT_EQ(settled.hazards_outside_cases, 0u);
}

// Retries are bounded: a case that failed out of memory as often as allowed keeps its last failure,
// and its process stands (with what it reported outside any case); without retries, every process does.
TEST(RunnerRetries, TheLastAllowedAttemptStands) {
  attempt_reports reports;
  reports.cases = {reported("A.Full", case_status::failed,
                            "cudaMalloc failed: cudaErrorMemoryAllocation (out of memory)"),
                   reported("A.After", case_status::passed)};
  reports.hazards_outside_cases = 1;
  // Retried 3 times of 3 allowed; no retries allowed.
  for (const auto& [retries, limit] : {std::pair<std::size_t, std::size_t>{3, 3}, std::pair<std::size_t, std::size_t>{0, 0}}) {
    const settled_attempt settled = settle_attempt(reports, {{"A.Full", retries}}, limit);
    EXPECT_FALSE(settled.set_aside());
    EXPECT_EQ(settled.kept.size(), 2u);
    EXPECT_TRUE(settled.rerun.empty());
    EXPECT_EQ(settled.hazards_outside_cases, 1u);
  }
  // The guard's refusal is the submission's own doing: never retried.
  reports.cases[0].message = "cudaMalloc of 6 GiB refused: past the device memory limit of 4096 MiB";
  EXPECT_FALSE(settle_attempt(reports, {}, 3).set_aside());
}

// Where the grader runs such cases again alone after the batch (defer_exhausted), the last attempt's
// case and every case its process ran after it are kept only until then (deferred), and the process's
// reports outside any case are set apart from the counted ones; the cases before it stand as they are.
TEST(RunnerRetries, TheLastAllowedAttemptIsDeferredWhereTheGraderRunsItAgainAlone) {
  attempt_reports reports;
  reports.cases = {reported("A.Before", case_status::passed),
                   reported("A.Full", case_status::failed, "cudaMalloc failed: cudaErrorMemoryAllocation (out of memory)"),
                   reported("A.After", case_status::failed, "element 0: expected 1, got 0")};
  reports.hazards_outside_cases = 2;
  const settled_attempt deferred = settle_attempt(reports, {{"A.Full", 3}}, 3, true);
  EXPECT_FALSE(deferred.set_aside());
  EXPECT_EQ(deferred.kept.size(), 3u);
  EXPECT_EQ(deferred.deferred, (std::vector<std::string>{"A.Full", "A.After"}));
  EXPECT_EQ(deferred.hazards_outside_cases, 0u);
  EXPECT_EQ(deferred.hazards_outside_deferred, 2u);
  // Not deferred: without the grader's run again, and while retries are left (that is a retry).
  const settled_attempt kept = settle_attempt(reports, {{"A.Full", 3}}, 3, false);
  EXPECT_TRUE(kept.deferred.empty());
  EXPECT_EQ(kept.hazards_outside_cases, 2u);
  const settled_attempt retried = settle_attempt(reports, {}, 3, true);
  EXPECT_TRUE(retried.set_aside());
  EXPECT_TRUE(retried.deferred.empty());
  EXPECT_EQ(retried.hazards_outside_cases + retried.hazards_outside_deferred, 0u);
  // A process with no such case: nothing deferred, its reports counted.
  reports.cases[1].message = "element 3: expected 4, got 5";
  const settled_attempt plain = settle_attempt(reports, {}, 3, true);
  EXPECT_TRUE(plain.deferred.empty());
  EXPECT_EQ(plain.hazards_outside_cases, 2u);
}

}  // namespace
}  // namespace kc::runner
