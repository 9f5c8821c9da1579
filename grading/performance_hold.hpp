// A graded performance case's hold on its GPU, for grading several performance units of a GPU at
// once (scripts/grade.sh --performance-overlap N; issue 33, docs/grading.md "Performance overlap").
//
// Why: a class's performance units run one at a time, each with every slot of its GPU, so that no
// other process's work lands in its timed regions. About half of each unit is not its timing but its
// process starting and ending: the judge's and two executors' CUDA contexts, the program's start, the
// contexts' teardown (an H100, 7a7ffcf: covariance 1.0 s a unit, 0.25 s of start-ups and 0.28 s of
// exit; conv2d 2.0 s, 0.42 and 0.24 s). With N units of a GPU running at once, each holds the GPU
// only from its first device work to its last (the whole case), and the others' starts and ends
// happen beside it: the hold is a host-wide lock per GPU (flock on <dir>/<PCI bus id>.hold), taken
// after this case's executors have started, so their contexts are made outside it.
// That a context made or destroyed beside a timed region leaves its ratio where it was is what
// scripts/grading_timing_under_startups.sh measures; the default stays one unit a GPU until it has.
//
// Without KCONFORM_PERFORMANCE_HOLD_DIR (grade.sh sets it only with --performance-overlap above 1)
// a hold does nothing. The submission cannot reach the lock: its executor runs sandboxed, started
// before the lock file is opened, and the file is opened close-on-exec.
#pragma once

#include <string>

namespace kc::grading {

// An exclusive flock on `path` (created if missing), waited for and held until destroyed.
class file_hold {
 public:
  explicit file_hold(const std::string& path);
  ~file_hold();
  file_hold(const file_hold&) = delete;
  file_hold& operator=(const file_hold&) = delete;
  double waited_seconds() const { return waited_seconds_; }

 private:
  int fd_ = -1;
  double waited_seconds_ = 0;
};

// The hold file of the current device in `dir`: <dir>/<PCI bus id>.hold, the same for every process
// that sees the GPU, whatever CUDA_VISIBLE_DEVICES numbers it.
std::string gpu_hold_path(const std::string& dir);

// Made at the top of a family's Performance case, after KC_REQUIRE_GPU: with the hold folder set,
// starts the submission's and the echo executors (a start that fails is left for the case's own
// calls to report, as without the hold), then waits for the GPU's hold, telling the runner so (the W
// and G records, fixtures/case_progress.hpp: the wait does not count against the case's timeout), and
// records the wait as the case property gpu_hold_wait_seconds.
class performance_hold {
 public:
  performance_hold();
  ~performance_hold();
  performance_hold(const performance_hold&) = delete;
  performance_hold& operator=(const performance_hold&) = delete;

 private:
  file_hold* held_ = nullptr;
};

}  // namespace kc::grading
