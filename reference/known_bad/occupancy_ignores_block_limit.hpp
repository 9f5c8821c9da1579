// Known-bad occupancy calculator (issue 9 §6), used only by tests: the CPU test against the K40
// table must reject it. Kept beside the real calculator so the suite can prove it catches the bug.
#pragma once

#include "reference/occupancy.hpp"

namespace kc::occupancy::known_bad {

// The bug: no blocks-per-SM limit, only threads, registers and shared memory. On the K40 it says
// 64 blocks of 32 threads fit an SMX (100%), where the 16-block limit allows 16 (25%, the report's
// table) — the mistake of counting warp slots alone.
outcome calculate_ignoring_blocks_per_sm(const sm_limits& sm, const kernel_resources& kernel);

}  // namespace kc::occupancy::known_bad
