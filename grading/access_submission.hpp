// The access submission as three rows of the access registry (kc::access::variant), one per pattern,
// built from its traits: the family's sizes, inputs and checks (tests/access/access_checks.hpp) then
// run it exactly as they run the suite's own variants.
//   SubmissionCoalesced  AC1, body::coalesced      the exact reference
//   SubmissionRandom     AC2, body::curand_random  the index and spread oracles of the cuRAND rows
//   SubmissionGrouped    AC3, body::curand_group   the index, group and spread oracles (whole warps)
#pragma once

#include "kernels/access/access.hpp"

#include <span>
#include <vector>

namespace kc::grading {

// The three rows, or none when this process grades no submission.
std::span<const access::variant> access_submission();

// The blocks the submission declares, in its order; the first is every pattern's default (the one timed).
const std::vector<int>& declared_access_blocks();
int default_access_block();

}  // namespace kc::grading
