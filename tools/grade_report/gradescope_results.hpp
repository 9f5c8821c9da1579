// results.json in Gradescope's autograder format
// (https://gradescope-autograders.readthedocs.io/en/latest/specs/): the total, and one test per
// check and per group. Tests: "Build", "Hand-written code", "Suite symbols" (max 0: they explain a
// zeroed score, and appear with "none found" so the checks are visible), then each group.
// Gradescope enforces each test's visibility, so hidden groups keep their details here.
#pragma once

#include "fixtures/json_text.hpp"
#include "tools/grade_report/rubric.hpp"
#include "tools/grade_report/run_grade.hpp"
#include "tools/grade_report/run_inputs.hpp"

namespace kc::grade_report {

inline constexpr std::size_t build_log_limit = 20000;
inline constexpr std::size_t message_limit = 1500;

json::value gradescope_results(const grading_context& who, const run_inputs& run, const rubric& rules,
                               const run_grade& grade);

// One paragraph: family, seed, score and verdict (results.json's "output").
std::string run_paragraph(const grading_context& who, const run_inputs& run, const run_grade& grade);

// The case's "case" property (a human description), else its gtest name.
std::string description_of(const failed_case& f);

// A group's test output: counts, skips, the first failures, the smallest failing case, replay commands.
std::string group_output(const grading_context& who, const rubric& rules, const run_grade& grade, const group_grade& g);

}  // namespace kc::grade_report
