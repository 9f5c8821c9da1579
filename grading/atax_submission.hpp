// The ATAX submission as a registry row (kc::polybench::atax::variant), built from its traits: the
// family's shapes, inputs and check (tests/polybench/atax_*) then run it exactly as they run the
// suite's own variants.
#pragma once

#include "kernels/polybench/atax/atax.hpp"

#include <span>
#include <vector>

namespace kc::grading {

// One row named "Submission", or none when this process grades no submission.
std::span<const polybench::atax::variant> atax_submission();

// The blocks it declares, in its order; the first is its default (the one timed).
const std::vector<int>& atax_declared_blocks();
polybench::atax::atax_config default_atax_config();

}  // namespace kc::grading
