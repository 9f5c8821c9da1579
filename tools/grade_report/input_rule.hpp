// The reduction contract's input rule, as the student report states it: a KC_REDUCE_FULL reduction
// may overwrite in[] (grading/contract/kconform_reduction_submission.h), and the grading program
// records per case whether it did (the `input_overwritten` property, grading/reduction_grading_test.cpp).
#pragma once

#include "tools/grade_report/run_grade.hpp"
#include "tools/grade_report/run_inputs.hpp"

#include <string>

namespace kc::grade_report {

// The report's paragraph on it: the rule, and in how many of the cases that recorded it the kernel
// overwrote its input (hidden groups' cases left out: the student is not told how many they hold).
// "" for a submission the rule is not about (matmul, KC_REDUCE_PASS).
std::string input_rule_lines(const run_inputs& run, const run_grade& grade);

}  // namespace kc::grade_report
