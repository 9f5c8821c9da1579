// The matmul submission as a registry row (kc::matmul::variant), built from its traits: the family's
// shapes, inputs and checks then run it exactly as they run the suite's own variants.
#pragma once

#include "kernels/matmul/matmul.hpp"

#include <span>

namespace kc::grading {

// One row named "Submission", or none when this process grades no submission.
std::span<const matmul::variant> matmul_submission();

// Its default configuration: the first it declares (the one timed).
matmul::matmul_config default_matmul_config();

}  // namespace kc::grading
