#include "tools/grade_report/gradescope_results.hpp"

#include "tools/grade_report/report_text.hpp"

#include <algorithm>
#include <cmath>

namespace kc::grade_report {

namespace {

json::value test(const std::string& name, double score, double max_score, bool passed, const std::string& visibility,
                 const std::string& output) {
  return json::object{{"name", name},
                      {"score", round2(score)},
                      {"max_score", round2(max_score)},
                      {"status", passed ? "passed" : "failed"},
                      {"visibility", visibility},
                      {"output", output}};
}

std::string listing(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += "\n- " + s;
  return out;
}

// The tool's first lines (tools/runner's tool_said), each behind "    | ": the submission can write into
// the tool's channel, and a line of its own must not pass for one of the grader's ("  replay: ...").
std::string tool_said_lines(const std::string& said) {
  if (said.empty()) return "";
  std::string out = "\n  the tool's first lines:";
  std::size_t from = 0;
  for (std::size_t to; from <= said.size(); from = to + 1) {
    to = said.find('\n', from);
    if (to == std::string::npos) to = said.size();
    out += "\n    | " + said.substr(from, to - from);
  }
  return out;
}

std::string failure_text(const grading_context& who, const failed_case& f) {
  return description_of(f) + " [" + name_of(f.kind) + "]\n  case: " + f.c.name + "\n" + clip(f.c.message, message_limit) +
         tool_said_lines(f.c.property("tool_said")) +
         "\n  replay: " + replay_command(who, f.c) + "\n";
}

// A group's failures that its score does not count (the sanitizer group: value failures seen under a
// tool), named so that no one reads them as counted.
std::string not_counted_text(const rubric& rules, const group_grade& g) {
  if (g.not_counted.empty()) return "";
  const std::size_t listed = std::min<std::size_t>(rules.failures_listed, g.not_counted.size());
  std::string out = "\nFailed under a tool, but not by a tool finding: not counted here (the value groups grade these "
                    "cases; the first " + std::to_string(listed) + " of " +
                    std::to_string(g.not_counted.size()) + "):\n";
  for (std::size_t i = 0; i < listed; ++i) {
    const failed_case& f = g.not_counted[i];
    out += "- under " + tool_of(f.c.unit) + ": " + description_of(f) + " [" + name_of(f.kind) + "]\n  case: " + f.c.name + "\n";
  }
  return out;
}

}  // namespace

std::string description_of(const failed_case& f) {
  return f.c.property("case").empty() ? f.c.name : f.c.property("case");
}

std::string group_output(const grading_context& who, const rubric& rules, const run_grade& grade, const group_grade& g) {
  std::string out;
  if (!grade.build_ok) return g.note + "\n";
  out += counts_text(g);
  if (g.skipped > 0) out += (out.empty() ? "" : ", ") + std::to_string(g.skipped) + " skipped (" + g.skip_reason + ")";
  if (g.run() > 0 || g.skipped > 0) out += ".\n";
  if (!g.note.empty()) out += g.note + ".\n";
  if (!g.graded()) out += "Not graded: this rubric gives the group no weight.\n";
  if ((grade.zeroed_hand_written || grade.zeroed_suite_symbols) && g.earned > 0)
    out += "Earned " + score_text(g.earned) + "/" + score_text(g.weight) + ", but the whole run scores 0 (see above).\n";
  if (g.failures.empty()) return out + not_counted_text(rules, g);
  const std::size_t listed = std::min<std::size_t>(rules.failures_listed, g.failures.size());
  if (listed > 0)
    out += "\nFailed cases (the first " + std::to_string(listed) + " of " + std::to_string(g.failures.size()) + "):\n";
  for (std::size_t i = 0; i < listed; ++i) out += "- " + failure_text(who, g.failures[i]);
  if (g.smallest >= 0) {
    // The case to debug first; its details are not repeated when it is listed above.
    const failed_case& smallest = g.failures[g.smallest];
    if (static_cast<std::size_t>(g.smallest) < listed)
      out += "\nSmallest failing case: " + description_of(smallest) + " (listed above as number " +
             std::to_string(g.smallest + 1) + ").\n";
    else
      out += "\nSmallest failing case: " + failure_text(who, smallest);
  }
  return out + not_counted_text(rules, g);
}

std::string run_paragraph(const grading_context& who, const run_inputs& run, const run_grade& grade) {
  std::string out = "Family " + who.family + ", seed " + std::to_string(who.seed) + ": scored " +
                    score_text(grade.score) + " of " + score_text(grade.max_score) + ".";
  if (!grade.build_ok) {
    out += " " + not_built_reason(grade.build_status, true) + ": see the Build test.";
  } else if (grade.zeroed_hand_written || grade.zeroed_suite_symbols) {
    out += " The total is 0 because of the " +
           std::string(grade.zeroed_suite_symbols ? "Suite symbols" : "Hand-written code") + " check.";
  }
  const std::string kinds = kinds_found(grade, true, ", ");
  if (grade.build_ok) out += kinds.empty() ? " No visible case failed." : " Failures found: " + kinds + ".";
  if (!run.problems.empty())
    out += " The grader could not run or record all of its own work (" + std::to_string(run.problems.size()) +
           " problems), so this grade is not final; ask your instructor.";
  return out;
}

json::value gradescope_results(const grading_context& who, const run_inputs& run, const rubric& rules,
                               const run_grade& grade) {
  json::array tests;
  const std::string& visible = rules.visibility;
  tests.push_back(test("Build", 0, 0, grade.build_ok, visible,
                       grade.build_ok ? "The submission built and loaded.\n"
                                      : "Build status: " + grade.build_status + "\n\n" +
                                            clip(run.build.log, build_log_limit)));
  const std::vector<std::string>& libs = run.build.libraries;
  const std::vector<std::string>& loaded = run.runtime_libraries;
  std::string hand = libs.empty() && loaded.empty() ? "none found" : "";
  if (!libs.empty()) hand += "Library code found in the submission:" + listing(libs);
  if (!loaded.empty())
    hand += std::string(libs.empty() ? "" : "\n") +
            "Library code found at run time, in the grading process while the submission ran (library: file "
            "(how it was used)):" + listing(loaded);
  if (!libs.empty() || !loaded.empty())
    hand += grade.zeroed_hand_written ? "\nThis rubric requires hand-written kernels: the whole run scores 0."
                                      : "\nAllowed by this rubric (hand_written is false).";
  tests.push_back(test("Hand-written code", 0, 0, !grade.zeroed_hand_written, visible, hand));
  const std::vector<std::string>& symbols = run.build.suite_symbols;
  tests.push_back(test("Suite symbols", 0, 0, symbols.empty(), visible,
                       symbols.empty() ? "none found"
                                       : "A submission may not define or import the grader's symbols; found:" +
                                             listing(symbols) + "\nThe whole run scores 0."));
  const bool zeroed = grade.zeroed_hand_written || grade.zeroed_suite_symbols;
  for (const group_grade& g : grade.groups)
    tests.push_back(test(group_title(g.name), g.score, g.weight, g.full && !zeroed, g.visibility,
                         group_output(who, rules, grade, g)));
  return json::object{{"score", grade.score},
                      {"execution_time", std::llround(run.seconds)},
                      {"output", run_paragraph(who, run, grade)},
                      {"visibility", visible},
                      {"stdout_visibility", "hidden"},
                      {"tests", std::move(tests)}};
}

}  // namespace kc::grade_report
