// The two checks every reduction variant goes through. They return an AssertionResult instead of
// asserting, so the known-bad tests run the very same checks and count how many fail.
//
//   check_one_pass        one launch: every block's partial sum against the CPU reference
//   check_full_reduction  n -> 1 through the multi-pass driver (or the library): the total
//
// Each: fresh seeded input; outputs poisoned and guard-zoned; launch; synchronise; guards checked;
// every output compared. Exact where the input makes every partial sum representable, else within
// the rounding-error bound of the summation depth (see tolerance_for below).
#pragma once

#include "tests/reduction/reduction_cases.hpp"

#include <gtest/gtest.h>

namespace kc::reduction::testing {

::testing::AssertionResult check_one_pass(const reduction_case& c, std::uint64_t seed);
::testing::AssertionResult check_full_reduction(const reduction_case& c, std::uint64_t seed);

// Allowed |gpu − reference| for a sum with the given summation depth and sum|x|.
//   0 when the input is on an integer grid (exact_unit > 0) and sum|x| <= 2^24·exact_unit: every
//     partial sum is then a multiple of exact_unit below 2^24·exact_unit, representable in float,
//     so every addition is exact whatever the order.
//   else gamma(depth + 1)·sum|x| (Higham's bound for a summation tree of that depth). The +1 covers
//     the reference's own error: a compensated double sum, within ~2^-52·sum|x|, far below the
//     extra u·sum|x| that one more level of gamma allows.
double tolerance_for(std::size_t depth, double abs_sum, double exact_unit);

// Summation depth assumed for cub::DeviceReduce::Sum, whose tree we do not control: each thread
// of an even-share grid of at least one 32-thread warp per SM accumulates at most
// ceil(n / (32·SMs)) items in sequence, plus at most 32 per-thread items of one tile, plus block
// and grid trees of depth <= 32. Conservative; the integer inputs check CUB exactly regardless.
std::size_t library_summation_depth(std::size_t n);


}  // namespace kc::reduction::testing
