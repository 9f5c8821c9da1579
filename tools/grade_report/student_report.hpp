// report.md: the grade as the student reads it. Groups whose visibility is anything but "visible"
// show their score only: the student may read this file at once, before a due date has passed.
#pragma once

#include "tools/grade_report/rubric.hpp"
#include "tools/grade_report/run_grade.hpp"
#include "tools/grade_report/run_inputs.hpp"

#include <string>

namespace kc::grade_report {

std::string student_report(const grading_context& who, const run_inputs& run, const rubric& rules,
                           const run_grade& grade);

}  // namespace kc::grade_report
