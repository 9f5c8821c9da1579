// The grade of one run: each group's score under the rubric, the checks that zero the whole run, and
// the verdict. Pure computation over run_inputs; the three outputs (gradescope_results,
// student_report, class_summary) only format it.
//
// A case scores in the group its "group" property names, except that every case of a unit named
// grade.sanitizer.* scores in `sanitizer` (those units rerun the other groups' cases under
// compute-sanitizer). A case with no known group scores in `other`. Skipped cases count neither way;
// a group where no case ran scores 0, never full marks for nothing, and says why (group_grade::empty). A group's counts are of what it
// scores: cases, or tools for `sanitizer`, which is scored per tool (run_grade.cpp, score_sanitizer).
#pragma once

#include "tools/grade_report/rubric.hpp"
#include "tools/grade_report/run_inputs.hpp"
#include "tools/grade_report/verdict_kind.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kc::grade_report {

// Who and what was graded: the command line's identity of the run.
struct grading_context {
  std::string student;
  std::string family;      // reduction or matmul
  std::string submission;  // the path as given, for replay commands
  std::uint64_t seed = 0;
};

struct failed_case {
  case_record c;
  verdict_kind kind = verdict_kind::wrong_result;
  double work = 0;  // +infinity when the case recorded none: such a case is never "smallest"
};

struct group_grade {
  std::string name;        // small_sizes ...
  std::string visibility;  // the group's own, else the rubric's
  double weight = 0;
  double earned = 0;  // what the cases earned under the rubric (rounded)
  double score = 0;   // earned, or 0 when the run is zeroed
  // What the group scores, counted: cases, or for `sanitizer` tools (passed: clean; failed: a finding,
  // or no case finished under it; skipped: every case skipped).
  std::string counted = "cases";
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::vector<failed_case> failures;  // the failed cases its score counts, in run order
  int smallest = -1;                  // index into failures of the least work (first on ties); -1 if none
  // Failed cases seen in the group that its score does not count, listed so that no one reads them as
  // counted: under a tool, a value failure (or a hang, a memory failure) is not the tool's finding;
  // the value groups grade that case.
  std::vector<failed_case> not_counted;
  // When no case ran: why, in the verdict's word. "one_configuration" (configs) or "none_declared"
  // (another group): the grading program listed no case in the group for what the submission
  // declares. "no_case_ran": cases were listed (or no listing was recorded) and none recorded a
  // verdict. "" when cases ran. Either way the group scores 0 (docs/grading.md, The rubric).
  std::string empty;
  std::string skip_reason;            // the first skipped case's message, first line
  std::string note;                   // why the score is what it is, when the counts do not say
  bool full = false;                  // every case that ran passed (performance: at full marks)

  int run() const { return passed + failed; }
  bool graded() const { return weight > 0; }
  bool hidden() const { return visibility != "visible"; }
};

struct run_grade {
  std::string build_status;
  bool build_ok = false;
  std::vector<group_grade> groups;  // the rubric's groups in its order, then the others reported
  double earned = 0;
  double score = 0;
  double max_score = 0;
  bool zeroed_hand_written = false;  // rubric demands hand-written code and library code was found: in
                                     // the .so (build.json) or loaded or called at run time
  bool zeroed_suite_symbols = false;
  std::string verdict;  // "passed", the build status, or the kinds that cost marks, comma-joined
  double seconds = 0;   // the units' seconds
};

run_grade grade_run(const run_inputs& run, const rubric& rules);

// Full weight at ratio <= full_at, nothing at >= zero_at, linear in between (unrounded).
double performance_score(double ratio, const group_rule& rule);

// The verdict kinds among the failed cases of the groups given (all, or only the visible ones), in
// verdict_kind order, joined by `separator`; "" when there are none.
std::string kinds_found(const run_grade& g, bool visible_only, const char* separator = ",");

// "Small sizes" for small_sizes.
std::string group_title(const std::string& group);

// The group's counts in words: "3 of 4 cases passed", "2 of 3 tools clean"; "" when none ran.
std::string counts_text(const group_grade& g);

// The tool of a sanitizer unit: "memcheck" for grade.sanitizer.memcheck.
std::string tool_of(const std::string& unit);

// What a student types to rerun one failed case: the case under the same seed (--only), and for a
// sanitizer unit's finding under that tool (--tool); a report outside any case (<unit>.OutsideAnyCase,
// start-up or exit) names no case, so its replay is the whole tool run.
std::string replay_command(const grading_context& who, const case_record& c);

// What "not run" says for a build status other than ok ("not run: the submission did not build
// (compile_error)"); `sentence` capitalises it to open a sentence.
std::string not_built_reason(const std::string& build_status, bool sentence = false);

}  // namespace kc::grade_report
