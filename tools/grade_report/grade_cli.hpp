// kconform_grade_report's command line, apart from main() so the tests can run it:
//
//   kconform_grade_report student --run-dir DIR --rubric RUBRIC.json --family FAMILY (grading/families/FAMILY.cmake)
//       --student NAME --submission PATH --seed U64 --out DIR
//     Grades one run (DIR/build.json, DIR/units/*.json: scripts/grade.sh writes them) and writes
//     OUT/results.json (Gradescope), OUT/report.md (for the student), OUT/summary.json (for the class CSV).
//   kconform_grade_report class --out CLASS.csv STUDENT_OUT_DIR...
//     One row per student from each folder's summary.json, sorted by student.
//   kconform_grade_report default-rubric --family FAMILY (grading/families/FAMILY.cmake)
//     Prints the default rubric (rubric.hpp documents every field): a starting point to edit.
//
// A student's failures are the grade, not an error: `student` exits 0 whatever the score.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kc::grade_report {

inline constexpr int exit_graded = 0;
// The outputs were written, but the grader's own records were incomplete (build.json or a unit file
// missing or malformed: the outputs say which), or an output could not be written.
inline constexpr int exit_grader_problem = 1;
inline constexpr int exit_bad_usage = 2;  // bad arguments, or an unreadable or invalid rubric

// `args` without the program name. Written paths and the default rubric go to `out`, messages to `err`.
int run_grade_report(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace kc::grade_report
