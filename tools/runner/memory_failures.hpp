// Which failed cases are about device memory, by the words of their message: the runner's own kill
// (a process past KCONFORM_PROCESS_MEMORY_LIMIT_MIB) and a device that was full when the case asked
// for memory while its own process stayed within its limits.
#pragma once

#include "tools/runner/case_records.hpp"

namespace kc::runner {

// The runner killed the case's process for holding too much device memory: it restarts a process
// per case like a hang, so the hang streak counts it too.
bool is_memory_kill(const case_result& r);

// The device had no memory to give: the CUDA runtime's or cuBLAS's out-of-memory error, or the
// fixtures' own "does not fit: the device has N MiB free" (kc::device_full_words), and not the
// in-process guard's refusal ("device memory limit") nor the runner's kill. On a GPU shared with
// other processes that is most often a neighbour's doing (one that takes memory by a route only the
// runner's watch sees holds it until the next poll), so KCONFORM_OOM_RETRIES=k runs such a case
// again, in a fresh process after a pause, up to k times: a student's grade must not depend on who
// was graded beside them (issue 19).
bool is_out_of_memory_from_outside(const case_result& r);

}  // namespace kc::runner
