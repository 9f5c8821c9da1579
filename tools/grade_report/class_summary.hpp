// summary.json (one student's grade, machine-readable) and the class CSV merged from many of them.
//
// summary.json: {"student", "family", "seed", "score", "max_score", "verdict",
//   "groups": {group: {"score", "max_score", "counted", "passed", "failed", "skipped", "not_counted"}},
//   "seconds", "build"}. A group's counts are of what it scores ("counted": "cases", or "tools" for
//   the sanitizer group); not_counted is the failed cases seen in it that its score does not count;
//   "empty", only where no case ran, says why (one_configuration, none_declared, no_case_ran).
// The seed is written as a decimal string: a u64 seed past 2^53 has no exact JSON number (the
// reader, json_text, holds numbers as doubles).
//
// Class CSV: student,family,score,max_score,verdict,<one column per group, in rubric order>,seconds,seed
// one row per student, sorted by student. Group columns are the union over the summaries in the order
// first seen (each summary lists its groups in rubric order); a group a summary lacks is left empty.
#pragma once

#include "fixtures/json_text.hpp"
#include "tools/grade_report/run_grade.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kc::grade_report {

json::value summary_json(const grading_context& who, const run_grade& grade);

struct class_csv {
  std::string text;
  std::vector<std::string> problems;  // student folders whose summary.json could not be read (still a row)
};

// Reads <dir>/summary.json for each dir.
class_csv class_csv_of(const std::vector<std::filesystem::path>& student_dirs);

}  // namespace kc::grade_report
