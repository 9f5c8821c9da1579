// The divergence submission as two rows of the access registry (kc::access::variant), built from its
// traits: DV1 (kc_warp_no_divergence, op by (i/32) % 4) and DV2 (kc_warp_divergence, op by i % 4).
// The access family's cases and check (tests/access) then run them exactly as they run the suite's
// WarpNoDivergence and WarpDivergence rows. Both rows are named "Submission"; their catalog ids (DV1,
// DV2) tell them apart in messages, and the grading program gives each a test suite of its own.
#pragma once

#include "kernels/access/access.hpp"

#include <vector>

namespace kc::grading {

// The DV1 row, or none when this process grades no submission.
std::span<const access::variant> warp_no_divergence_submission();
// The DV2 row, or none.
std::span<const access::variant> warp_divergence_submission();

// The blocks the submission declares, in its order; the first is its default (the one timed).
const std::vector<int>& divergence_blocks();
int default_divergence_block();
// The blocks the grader adds (96 and 97), less any the submission declares: graded like a declared
// block other than the first, so an op taken from the block's shape shows (issue 20).
const std::vector<int>& grader_divergence_blocks();

}  // namespace kc::grading
