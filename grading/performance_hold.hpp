// A graded performance case's hold on its GPU, for grading several performance units of a GPU at
// once (scripts/grade.sh --performance-overlap N; issue 33, docs/grading.md "Performance overlap").
//
// Why: a class's performance units run one at a time, each with every slot of its GPU, so that no
// other process's work lands in its timed regions. Part of each unit is not its case but its grading
// process starting and ending (on an H100 at 7a7ffcf: covariance 1.0 s a unit, of which 0.25 s
// start-ups and 0.28 s exit; conv2d 2.0 s, 0.42 s and 0.24 s). With N units of a GPU at once, each
// holds the GPU from the start of its case to its end: an exclusive flock on
// <hold folder>/gpu-<PCI bus id>.hold, per batch (grade.sh's folder) and GPU. Inside the hold are all
// of the case's device work and every line of the submission's code: its executor starts at the
// case's first call and is ended (and reaped, with its sandbox's processes) before the hold is let
// go, so no student's code is alive beside another's timing. Outside it are only the grader's own:
// the grading process's start, its CUDA context (opened by KC_REQUIRE_GPU, before the hold), the echo
// executor's idle life (it starts at the case's first echo call, inside), and their teardown at exit. That such a context made or destroyed beside
// a timed region leaves its ratio where it was is what scripts/grading_timing_under_startups.sh
// measures; the default stays one unit a GPU until it has.
//
// Without KCONFORM_PERFORMANCE_HOLD_DIR (grade.sh sets it only with --performance-overlap above 1)
// a hold does nothing at all. The submission cannot take the lock: its executor starts only once the
// hold is held, runs as another uid in a sandbox that closes every inherited descriptor, and the
// folder is the grader's (mode 0700).
#pragma once

#include <optional>
#include <string>

namespace kc::grading {

// An exclusive flock on `path` (created if missing), waited for and held until destroyed. Throws
// std::runtime_error naming the file when it cannot be opened or locked.
class file_hold {
 public:
  explicit file_hold(const std::string& path);
  ~file_hold();
  file_hold(const file_hold&) = delete;
  file_hold& operator=(const file_hold&) = delete;
  double waited_seconds() const { return waited_seconds_; }
  // The file's text, and writes to it (the holder's notes for the next holder).
  std::string contents() const;
  void clear();
  void append(const std::string& text);

 private:
  int fd_ = -1;
  double waited_seconds_ = 0;
};

// Waits, up to `seconds`, until none of the processes `pids` (text: one id a line) runs any more (gone,
// or a zombie: its GPU context is torn down by then); returns the seconds waited.
double wait_for_processes_gone(const std::string& pids, double seconds);

// The hold file of the current device in `dir`: <dir>/gpu-<PCI bus id, ':' and '.' as '-'>.hold, the
// same for every process that sees the GPU, whatever CUDA_VISIBLE_DEVICES numbers it.
std::string gpu_hold_path(const std::string& dir);

// Made first in a family's Performance case, after KC_REQUIRE_GPU. With the hold folder set: waits
// for the GPU's hold, telling the runner so (the W and G records, fixtures/case_progress.hpp: the
// wait does not count against the case's timeout), records the wait as the case property
// gpu_hold_wait_seconds, and when destroyed ends the submission's executor, then lets go. A hold that
// cannot be taken fails the case as the grader's problem (property grader_problem), never the
// student's. Every submission executor started under the hold is written into the hold file as it
// starts; a holder killed before it could end them (the runner's deadline, a kernel watchdog's exit)
// lets go of the lock as it dies while they may still be dying, so the next holder waits (up to 15 s)
// until the processes the file names are gone before its case begins.
class performance_hold {
 public:
  performance_hold();
  ~performance_hold();
  performance_hold(const performance_hold&) = delete;
  performance_hold& operator=(const performance_hold&) = delete;

 private:
  std::optional<file_hold> held_;
};

}  // namespace kc::grading
