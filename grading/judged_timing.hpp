// How a performance case times the submission against the reference, on the judge's side of the
// trust boundary (issue 32; docs/grading.md, "Trust boundary").
//
// The submission runs in another process (its executor), so nothing it does there — a patched
// cudaEventElapsedTime or clock_gettime, its own events — reaches the numbers: every region is timed
// by the judge's own CUDA events on its own stream. One sample of a work is:
//   untimed: the work's `prepare` (restore what it destroys), its outputs filled with their poison,
//            persisting L2 lines reset and the set-aside cleared, the L2 flushed (a buffer twice its
//            size written);
//   timed:   event, the call(s) (for the submission: each an exchange with the executor, which waits
//            for its device before answering), a copy of every output into a snapshot, event.
// The snapshot is taken before the region ends, so work the call left running (on another stream, or
// launched later by a thread of its own) either finishes inside the region or is missing from the
// snapshot; after the sample every snapshot of the submission must hold, within rounding (1e-4 of
// each element: an atomics order moves a sum by far less; NaN and infinities bit for bit), what two
// untimed calls on the same inputs wrote, and those two must agree the same way. A snapshot that does
// not is "timing evaded", and no ratio is scored. What this does not check is that the untimed answer
// is right: the family's fresh-contents check after the timing judges one more call against the
// reference (docs/grading.md, Trust boundary, says what that leaves open).
//
// A call across the boundary costs time by itself (the channel, the wake-up, the switch to the other
// context): the same region around as many calls to a trusted executor that runs a one-thread kernel
// (remote::echo_call) as a submission sample makes measures it, and the submission's median is taken
// less that median (on the H100 box one echo call's region was ~350 us, three ~600 us). The
// reference runs in the judge, in the same region without the exchange. Works are sampled in turn
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
  double submission_region_us = 0;  // the submission's median region, before the subtraction
  double call_cost_us = 0;          // the echo region's median: as many calls as a submission sample makes
  double calls_per_sample = 0;
  int samples = 0;
  std::string evaded;             // "" or why a timed call's output was not what it writes untimed
};

// Times both works `samples` times each, interleaved (see above).
judged_timing judge_timing(const graded_work& submission, const graded_work& reference, cudaStream_t stream,
                           int samples = 21);

// The message a performance case fails with when timing was evaded (tools/grade_report classifies a
// failure that says "timing evaded" as timing_evaded).
std::string timing_evaded_message(const std::string& what);

}  // namespace kc::grading
