// How a performance case times the submission against the reference, on the judge's side of the
// trust boundary (issue 32; docs/grading.md, "Trust boundary").
//
// The submission runs in another process (its executor), so nothing it does there -- a patched
// cudaEventElapsedTime or clock_gettime, its own events -- reaches the numbers: every region is timed
// by the judge's own CUDA events on its own stream.
//
// The reference (in the judge) is timed one call per sample:
//   untimed: its `prepare` (restore what it destroys), outputs poisoned, persisting L2 lines reset and
//            the set-aside cleared, the L2 flushed (a buffer twice its size written);
//   timed:   event, the call, a copy of every output into a snapshot, event.
// The submission's calls cross a process boundary, which costs more than a short kernel (the
// channel, the executor's wake-up, the GPU's switch to its context and back: ~0.2-1 ms on the H100
// box, with noise of its own). So its calls are recorded once (an untimed run), and a sample replays
// them `repeat` times in one exchange (remote::replay), the k-th time on the k-th buffer set:
//   untimed: prepare and poison of the work's own buffers (set 0), then every allocation the calls
//            were handed copied into sets 1..repeat-1 (the judge's allocations, same sizes), L2 reset
//            and flushed as above;
//   timed:   event, the replay (the executor makes the calls back to back and waits for its device
//            once), a copy of every set's outputs into snapshots of their own, event.
// An exchange's own cost is measured by the same region around one call to a trusted executor that
// runs a one-thread kernel (remote::echo_call), and the submission's time per call is its median
// region less the echo's median, over `repeat`. `repeat` is chosen so the replayed calls fill ~5 ms
// at the reference's speed, or at the submission's where its untimed run was slower (so a slow
// submission's samples stay within the case's deadline); at most 64, within a memory budget. The
// exchange is then paid once for many calls, and its noise is divided among them.
//
// The snapshots are taken before the region ends, so work a call left running (on another stream, or
// launched later by a thread of its own) either finishes inside the region or is missing from them;
// after each sample every snapshot, of every set, must hold, within rounding (1e-4 of each element:
// an atomics order moves a sum by far less; NaN and infinities bit for bit), what two untimed calls
// on the same inputs wrote, and those two must agree the same way. A snapshot that does not is
// "timing evaded", and no ratio is scored. Distinct sets keep a call from finding its inputs in L2
// where the previous call left them, and make every output one this call wrote (each set's outputs
// start poisoned). What this does not check is that the untimed answer is right: the family's
// fresh-contents check after the timing judges one more call against the reference
// (docs/grading.md, Trust boundary, says what that leaves open). Works are sampled in turn
// (submission, reference, echo, ...), so drift falls on all of them.
#pragma once

#include "fixtures/measurement.hpp"
#include "grading/timed_ratio.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace kc::grading {

// A device buffer a work writes: poisoned with `fill` bytes before each sample, copied into the
// snapshot inside the region. element_bytes (4: float, 8: double) is the unit the spread rule compares.
struct timed_output {
  void* data = nullptr;
  std::size_t bytes = 0;
  int element_bytes = 4;
  unsigned char fill = 0xFF;
};

struct graded_work {
  perf::timed_work work;  // run: the call(s) on the stream; prepare: untimed restore before each sample
  std::vector<timed_output> outputs;
};

struct judged_timing {
  timed_ratio ratio;              // the submission's median (less its calls' cost) / the reference's
  double submission_region_us = 0;  // the submission's median region (`repeat` replays), before the subtraction
  double call_cost_us = 0;          // the echo region's median: one exchange with the trusted executor
  double calls_per_sample = 0;      // the submission's calls in one region (a run's calls x repeat)
  int repeat = 1;                   // how many times a region replays a run's calls, each on its own buffer set
  int samples = 0;
  std::string evaded;             // "" or why a timed call's output was not what it writes untimed
  std::string failed;             // "" or why a replay could not be made, was refused or failed on the device
};

// Times both works `samples` times each, interleaved (see above).
judged_timing judge_timing(const graded_work& submission, const graded_work& reference, cudaStream_t stream,
                           int samples = 21);

// The message a performance case fails with when timing was evaded (tools/grade_report classifies a
// failure that says "timing evaded" as timing_evaded).
std::string timing_evaded_message(const std::string& what);

}  // namespace kc::grading
