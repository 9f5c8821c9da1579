// The covariance submission as a registry row (kc::polybench::covariance::variant), built from its
// traits: the family's sizes, FLOAT_N settings, inputs and check then run it exactly as they run the
// suite's own variants.
#pragma once

#include "kernels/polybench/covariance/covariance.hpp"

#include <span>

namespace kc::grading {

// One row named "Submission", or none when this process grades no submission.
std::span<const polybench::covariance::variant> covariance_submission();

// Its default configuration: the first block it declares (the one timed), as the row's config
// (tile = the block; the pipeline's other fields 0: the submission launches its own kernels).
polybench::covariance::covariance_config default_covariance_config();

}  // namespace kc::grading
