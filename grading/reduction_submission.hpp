// The reduction submission as a registry row (kc::reduction::variant), built from its traits: the
// family's sweeps, inputs and checks then run it exactly as they run the suite's own variants.
#pragma once

#include "kernels/reduction/reduction.hpp"

#include <span>

namespace kc::grading {

// One row named "Submission", or none when this process grades no submission.
std::span<const reduction::variant> reduction_submission();

// The configuration a reduction is timed and scored at by default: block 256 where its rule allows
// it, else the allowed block nearest below, else its smallest (0 for one that picks its own).
int default_reduction_block(const reduction::variant& v);

}  // namespace kc::grading
