#include "tools/grade_report/student_report.hpp"

#include "tools/grade_report/gradescope_results.hpp"
#include "tools/grade_report/input_rule.hpp"
#include "tools/grade_report/report_text.hpp"

#include <algorithm>

namespace kc::grade_report {

namespace {

// A report outside any case keeps the tool's first lines (tools/runner: tool_said), as the tool wrote
// them into its channel, which the submission's process could write into too.
std::string failure_section(const grading_context& who, const failed_case& f, bool full_message) {
  const std::string said = f.c.property("tool_said");
  return "**" + description_of(f) + "** (`" + f.c.name + "`, " + name_of(f.kind) + ")\n\n" +
         fenced(full_message ? f.c.message : clip(f.c.message, message_limit)) +
         (said.empty() ? "" : "\nThe tool's first lines:\n\n" + fenced(said)) + "\nReplay:\n\n" +
         fenced(replay_command(who, f.c)) + "\n";
}

// The counts are of what the group scores: a group counted in tools says so in its title.
std::string group_row(const group_grade& g) {
  const std::string score = score_text(g.score) + " | " + score_text(g.weight);
  if (g.hidden()) return "| " + group_title(g.name) + " (hidden) | – | – | – | " + score + " |\n";
  const std::string title = group_title(g.name) + (g.counted == "cases" ? "" : " (" + g.counted + ")");
  return "| " + title + " | " + std::to_string(g.passed) + " | " + std::to_string(g.run()) + " | " +
         std::to_string(g.skipped) + " | " + score + " |\n";
}

std::string not_counted_lines(const rubric& rules, const group_grade& g) {
  if (g.not_counted.empty()) return "";
  std::string out = "\nFailed under a tool, but not by a tool finding: not counted here (the value groups grade these "
                    "cases):\n\n";
  const std::size_t listed = std::min<std::size_t>(rules.failures_listed, g.not_counted.size());
  for (std::size_t i = 0; i < listed; ++i) {
    const failed_case& f = g.not_counted[i];
    out += "- under " + tool_of(f.c.unit) + ": " + description_of(f) + " (`" + f.c.name + "`, " + name_of(f.kind) + ")\n";
  }
  if (g.not_counted.size() > listed)
    out += "(" + std::to_string(g.not_counted.size() - listed) + " more not listed.)\n";
  return out;
}

std::string traits_lines(const json::value& traits) {
  const json::object* members = traits.as_object();
  if (members == nullptr || members->empty()) return "";
  std::string out = "\nWhat the build found in the submission:\n\n";
  for (const auto& [key, v] : *members)
    out += "- " + key + ": " + (v.as_string() ? *v.as_string() : json::dump(v)) + "\n";
  return out;
}

std::string group_details(const grading_context& who, const rubric& rules, const group_grade& g) {
  std::string out = "\n## " + group_title(g.name) + "\n\n";
  if (g.run() > 0) out += counts_text(g) + ". ";
  if (g.skipped > 0) out += std::to_string(g.skipped) + " skipped (" + g.skip_reason + "). ";
  if (!g.note.empty()) out += g.note + ".";
  while (out.back() == ' ') out.pop_back();
  out += "\n\n";
  if (g.smallest >= 0) out += "Smallest failing case: " + failure_section(who, g.failures[g.smallest], true);
  // The others listed, the smallest not repeated.
  std::size_t shown = 0;
  for (std::size_t i = 0; i < g.failures.size() && shown < static_cast<std::size_t>(rules.failures_listed); ++i) {
    if (static_cast<int>(i) == g.smallest) continue;
    if (shown++ == 0) out += "Other failures:\n\n";
    out += "- " + failure_section(who, g.failures[i], false);
  }
  if (g.failures.size() > shown + (g.smallest >= 0 ? 1 : 0))
    out += "(" + std::to_string(g.failures.size() - shown - (g.smallest >= 0 ? 1 : 0)) + " more failed cases not listed.)\n";
  return out + not_counted_lines(rules, g);
}

// Cases that got no device memory on any of their runs beside the other submissions graded with this
// one (scripts/rerun_memory_starved.sh): said, so that a reader knows which verdicts come from a run
// alone after the batch, and, for a test whose cases were not run again, why not.
std::string memory_lines(const run_inputs& run) {
  if (run.memory_reruns.empty()) return "";
  std::string ran, not_run;
  for (const auto& [test, outcome] : run.memory_reruns) {
    if (outcome == "ran") ran += (ran.empty() ? "`" : ", `") + test + "`";
    else not_run += "- `" + test + "`: " + outcome + "\n";
  }
  std::string out = "\nSome cases got no device memory on any of their runs beside the other submissions graded in "
                    "the same batch.";
  if (!ran.empty())
    out += " Those cases, and the cases their process ran after them, were run again alone after the batch, and "
           "their verdicts below are from that run (" + ran + "); every other case's are from the first.";
  out += "\n";
  if (!not_run.empty()) out += "\nNot run again (the first run's verdicts stand):\n\n" + not_run;
  return out;
}

}  // namespace

std::string student_report(const grading_context& who, const run_inputs& run, const rubric& rules,
                           const run_grade& grade) {
  std::string out = "# Grading report: " + who.student + "\n\n";
  out += "- Family: " + who.family + "\n- Seed: " + std::to_string(who.seed) + "\n- Submission: `" + who.submission +
         "`\n- Score: **" + score_text(grade.score) + " / " + score_text(grade.max_score) + "**\n";
  const std::string kinds = kinds_found(grade, true, ", ");
  out += "- Failures found: " + (grade.build_ok ? (kinds.empty() ? std::string("none") : kinds) : grade.build_status) +
         "\n";
  const auto lines = [](const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& x : items) s += x + "\n";
    return s;
  };
  if (grade.zeroed_suite_symbols)
    out += "\n**The total is 0**: a submission may not define or import the grader's symbols. Found:\n\n" +
           fenced(lines(run.build.suite_symbols));
  if (grade.zeroed_hand_written) {
    out += "\n**The total is 0**: this assignment requires hand-written kernels, and the submission uses library code";
    out += run.build.libraries.empty() ? std::string(".\n") : ":\n\n" + fenced(lines(run.build.libraries));
    if (!run.runtime_libraries.empty())
      out += "\nFound at run time, in the grading process while your code ran (the library, the file it was loaded "
             "from, and how it was used):\n\n" + fenced(lines(run.runtime_libraries));
  }
  if (!run.problems.empty())
    out += "\nThe grader could not run or record all of its own work, so this grade is not final; ask your instructor "
           "to look at this run:\n\n" + fenced(lines(run.problems));
  out += memory_lines(run);
  out += traits_lines(run.build.traits);
  out += input_rule_lines(run, grade);
  if (!grade.build_ok) {
    out += "\n## Build\n\n" + not_built_reason(grade.build_status, true) + ".\n\n" + fenced(clip(run.build.log, build_log_limit));
  }
  out += "\n| Group | Passed | Run | Skipped | Score | Max |\n|---|---|---|---|---|---|\n";
  for (const group_grade& g : grade.groups) out += group_row(g);
  if (!grade.build_ok) return out;
  for (const group_grade& g : grade.groups)
    if (!g.hidden() && (!g.failures.empty() || !g.not_counted.empty() ||
                        (g.graded() && (g.name == "performance" || g.run() == 0))))
      out += group_details(who, rules, g);
  return out;
}

}  // namespace kc::grade_report
