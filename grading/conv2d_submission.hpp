// The conv2d submission as a registry row (kc::polybench::conv2d::variant), built from its traits:
// the family's sizes, inputs and check (tests/polybench/conv2d_checks.hpp) then run it exactly as
// they run the suite's own variants.
#pragma once

#include "kernels/polybench/conv2d/conv2d.hpp"

#include <span>
#include <vector>

namespace kc::grading {

// One row named "Submission", or none when this process grades no submission.
std::span<const polybench::conv2d::variant> conv2d_submission();

// The blocks it declares, in its order; the first is its default (the one timed).
const std::vector<polybench::conv2d::conv2d_config>& declared_conv2d_configs();
polybench::conv2d::conv2d_config default_conv2d_config();

}  // namespace kc::grading
