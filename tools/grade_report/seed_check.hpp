// Every graded case records the seed its inputs came from (grading/graded_case.hpp); a case whose
// seed is not the grading run's drew inputs the instructor did not choose, so it cannot count.
#pragma once

#include "tools/grade_report/run_inputs.hpp"

#include <cstdint>

namespace kc::grade_report {

// Marks failed, saying why, each case that recorded a seed other than `run_seed`; returns how many.
// A case with no recorded seed (its process died before recording anything) is left as it is.
int fail_cases_with_another_seed(run_inputs* run, std::uint64_t run_seed);

}  // namespace kc::grade_report
