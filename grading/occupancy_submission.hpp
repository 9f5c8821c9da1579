// The occupancy submission: its vector add as a row of the access registry (kc::access::variant,
// the suite's VectorAdd row's place: DV1's body swept with the S1/S2 scenario blocks), so the access
// family's scenario sweep and check (tests/access) run it unchanged; and its two other entry points,
// the kernel it launches and its occupancy answer, for the grading program's occupancy cases.
#pragma once

#include "kernels/access/access.hpp"

#include <string>

namespace kc::grading {

// One row named "Submission" (catalog id OC), or none when this process grades no submission.
std::span<const access::variant> vector_add_submission();

// kc_vector_add_kernel(): the __global__ function the submission's launcher uses; nullptr with
// *problem set when the entry point is missing or returned NULL.
const void* submission_vector_add_kernel(std::string* problem);

// The submission's answer for `block` (kc_occupancy_answer); answered = false, with `problem` saying
// why, when it refused or the entry point is missing.
struct occupancy_answer {
  bool answered = false;
  int active_blocks_per_sm = -1;
  int active_warps_per_sm = -1;
  std::string problem;
};
occupancy_answer submission_occupancy_answer(int block);

}  // namespace kc::grading
