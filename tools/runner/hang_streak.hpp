// The hang streak (KCONFORM_HANG_STREAK=k, grading): after k consecutive cases that hung (or passed
// the device memory limit, which restarts a process per case as a hang does), the runner starts no
// fresh process for the rest of them; they fail as not run. A kernel that spins on every input would
// otherwise cost a deadline and a process per case.
//
// Counted per key over the cases in the order they run: the unit with `kconform_runner --units`
// (a grading program lists its groups' cases interleaved, and one group's hangs must not stop
// another's), one key for the whole run otherwise. A key's count runs up to its first case not yet
// resolved.
#pragma once

#include "tools/runner/case_records.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace kc::runner {

// A case that ended as a hang: past the kernel deadline (the program's own watchdog) or the runner's
// per-case timeout.
bool is_hang(const case_result& r);

struct hang_streak {
  std::size_t cases = 0;     // consecutive hung or memory-killed cases
  bool memory_kill = false;  // how the last of them ended
};

// The keys whose streak has reached `limit` (0: none ever does), with their streaks, over `order`
// with the results resolved so far.
std::map<std::string, hang_streak> streaks_at_limit(const std::vector<std::string>& order,
                                                    const std::map<std::string, case_result>& results,
                                                    const std::function<std::string(const std::string&)>& key_of,
                                                    std::size_t limit);

}  // namespace kc::runner
