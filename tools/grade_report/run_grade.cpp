#include "tools/grade_report/run_grade.hpp"

#include "tools/grade_report/report_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace kc::grade_report {

namespace {

// A case's group: its unit's for a sanitizer run; else the `group` property it recorded; else its
// unit's name (grade.<group>: the grading programs run each group as its own unit). The last is what
// places a case whose process died before it could record anything (a crash, a hang, exit()).
std::string group_of(const case_record& c) {
  if (c.unit.starts_with("grade.sanitizer.")) return "sanitizer";
  const auto& known = known_groups();
  const auto is_known = [&](const std::string& g) { return std::find(known.begin(), known.end(), g) != known.end(); };
  if (const std::string g = c.property("group"); is_known(g)) return g;
  if (c.unit.starts_with("grade.") && is_known(c.unit.substr(6))) return c.unit.substr(6);
  return "other";
}

// The groups reported, in order: the rubric's, then the known ones it leaves out (weight 0), then
// `other` if any case landed there.
std::vector<group_grade> empty_groups(const run_inputs& run, const rubric& rules) {
  std::vector<group_grade> groups;
  const auto add = [&](const std::string& name) {
    group_grade g;
    g.name = name;
    const group_rule* rule = rules.find(name);
    g.weight = rule ? rule->weight : 0;
    g.visibility = rule && !rule->visibility.empty() ? rule->visibility : rules.visibility;
    groups.push_back(g);
  };
  for (const group_rule& r : rules.groups) add(r.name);
  for (const std::string& name : known_groups())
    if (rules.find(name) == nullptr && name != "other") add(name);
  const bool any_other = std::any_of(run.cases.begin(), run.cases.end(),
                                     [](const case_record& c) { return group_of(c) == "other"; });
  if (rules.find("other") == nullptr && any_other) add("other");
  return groups;
}

failed_case failure_of(const case_record& c) {
  const double work = number_of(c.property("work"));
  return {c, classify_failure(c.message), std::isnan(work) ? std::numeric_limits<double>::infinity() : work};
}

void add_failure(group_grade* g, const case_record& c) {
  g->failures.push_back(failure_of(c));
  const int last = static_cast<int>(g->failures.size()) - 1;
  // Strictly less: ties keep the first failure.
  if (std::isfinite(g->failures[last].work) && (g->smallest < 0 || g->failures[last].work < g->failures[g->smallest].work))
    g->smallest = last;
}

void count_cases(const run_inputs& run, std::vector<group_grade>* groups) {
  for (const case_record& c : run.cases) {
    const std::string name = group_of(c);
    const auto g = std::find_if(groups->begin(), groups->end(), [&](const group_grade& x) { return x.name == name; });
    if (c.status == "passed") ++g->passed;
    if (c.status == "skipped") {
      if (g->skipped++ == 0) g->skip_reason = c.message.substr(0, c.message.find('\n'));
    }
    if (c.status == "failed") {
      ++g->failed;
      add_failure(&*g, c);
    }
  }
}

void score_cases(group_grade* g, scoring_rule scoring) {
  if (g->run() == 0) {
    g->note = "No case ran, so the group scores 0";
    return;
  }
  g->full = g->failed == 0;
  g->earned = scoring == scoring_rule::fraction ? g->weight * g->passed / g->run() : (g->full ? g->weight : 0.0);
}

// The sanitizer group scores per tool, not per case: a tool reports each hazard once per process
// (racecheck's report of a race in one case is not repeated for the next case that hits the same
// code), so a case count would make a race that every case runs into cost one case in twenty. A tool
// is clean when it reported no hazard — in a case, or outside any (start-up, exit: leaks) — in its own
// channel (tools/runner reads the tool's --log-file, never the program's output). A case that fails
// its value check, or its memory limit, under the tool is not the tool's finding: it is graded in the
// value groups, and listed here as not counted; but a tool under which no case finished (all hung or
// crashed) watched nothing and is not clean either. The group earns its weight times the fraction of
// clean tools (all or nothing: every tool clean), and its counts are tools, so that they say what
// was scored.
void score_sanitizer(const run_inputs& run, group_grade* g, scoring_rule scoring) {
  struct tool_record {
    std::string unit;
    bool ran = false;       // some case under it was not skipped
    bool finding = false;   // it reported a hazard
    bool finished = false;  // it watched a case run to its end
  };
  std::vector<tool_record> tools;
  const auto tool_for = [&](const std::string& unit) -> tool_record& {
    const auto found = std::find_if(tools.begin(), tools.end(), [&](const tool_record& t) { return t.unit == unit; });
    if (found != tools.end()) return *found;
    return tools.emplace_back(tool_record{unit});
  };
  // The runner words every tool report "... hazard(s) ...", also on a case that failed otherwise (a
  // fault under memcheck), where the message classifies as the fault.
  const auto is_finding = [](const case_record& c) {
    return c.status == "failed" && c.message.find("hazard") != std::string::npos;
  };
  for (const case_record& c : run.cases) {
    if (group_of(c) != "sanitizer") continue;
    tool_record& t = tool_for(c.unit);
    if (c.status == "skipped") continue;
    t.ran = true;
    t.finding = t.finding || is_finding(c);
    // The tool watched the code run only in a case that finished: passed, or failed its own check. A
    // case the grader could not run (grader_problem: no device or library in the executor) ran nothing.
    if (!c.property("grader_problem").empty()) continue;
    const verdict_kind kind = classify_failure(c.message);
    t.finished = t.finished || c.status == "passed" ||
                 (c.status == "failed" && (kind == verdict_kind::wrong_result || kind == verdict_kind::memory ||
                                           kind == verdict_kind::cached_answers ||
                                           kind == verdict_kind::timing_evaded || kind == verdict_kind::refused_config));
  }
  // count_cases counted cases; this group counts tools, and lists the failures no tool is charged for.
  g->counted = "tools";
  g->passed = g->failed = g->skipped = 0;
  g->failures.clear();
  g->smallest = -1;
  std::string reasons;
  for (const tool_record& t : tools) {
    if (!t.ran) {
      ++g->skipped;
      continue;
    }
    // A tool that saw no case finish (every one hung, crashed or was not run) found nothing because
    // it watched nothing: it is not clean.
    const bool clean = !t.finding && t.finished;
    ++(clean ? g->passed : g->failed);
    if (!clean)
      reasons += (reasons.empty() ? "" : "; ") + tool_of(t.unit) + (t.finding ? " reported hazards" : " saw no case finish");
  }
  for (const case_record& c : run.cases) {
    if (group_of(c) != "sanitizer" || c.status != "failed") continue;
    const tool_record& t = tool_for(c.unit);
    // What made its tool dirty is counted: the tool's finding, or, under a tool that saw no case
    // finish, the case that did not.
    if (is_finding(c) || !t.finished) add_failure(g, c);
    else g->not_counted.push_back(failure_of(c));
  }
  if (g->run() == 0) {
    g->note = "No case ran, so the group scores 0";
    return;
  }
  g->full = g->failed == 0;
  g->earned = scoring == scoring_rule::fraction ? g->weight * g->passed / g->run() : (g->full ? g->weight : 0.0);
  g->note = "Scored per tool" + (reasons.empty() ? std::string() : " (" + reasons + ")") +
            ": a tool reports each hazard once per process, so cases are not counted";
}

// The groups a grading program lists cases in from the submission's traits (grading/graded_case.hpp);
// the sanitizer runs and the performance case are the grader's own, whatever the submission declares:
// the known groups but those two and "other" (so a value group added to the rubric is one of them).
bool listed_from_traits(const std::string& group) {
  const auto& known = known_groups();
  return group != "sanitizer" && group != "performance" && group != "other" &&
         std::find(known.begin(), known.end(), group) != known.end();
}

// Why a group in which no case ran is empty (group_grade::empty), and the note that says so when it
// was by declaration. A listing that names no unit at all is no declaration (the program read no
// traits): only a group missing from a listing of others is empty by declaration.
void name_the_empty_group(const run_inputs& run, group_grade* g) {
  g->empty = "no_case_ran";
  if (g->skipped > 0 || !listed_from_traits(g->name) || !run.listed_units || run.listed_units->empty()) return;
  for (const auto& [unit, cases] : *run.listed_units) {
    if (unit != g->name) continue;
    g->note = "No case ran: the grading program listed " + std::to_string(cases) +
              " case(s) in this group and none recorded a verdict, so the group scores 0";
    return;
  }
  if (g->name == "configs") {
    g->empty = "one_configuration";
    g->note = "One configuration declared: the submission declares no configuration besides its default, so this "
              "group has no case and scores 0 (the contract asks a submission to declare the configurations it "
              "supports)";
  } else {
    g->empty = "none_declared";
    g->note = "None declared: for what the submission declares, the grading program lists no case in this group, "
              "so it scores 0";
  }
}

std::string ratio_text(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

void score_performance(const run_inputs& run, const group_rule& rule, group_grade* g) {
  const std::string curve = "full marks at ratio <= " + ratio_text(rule.full_at) + ", none at >= " +
                            ratio_text(rule.zero_at) + ", linear in between (ratio = submission median / reference median)";
  if (g->run() == 0) {
    g->note = "No case ran, so the group scores 0; " + curve;
    return;
  }
  if (g->failed > 0) {
    g->note = "The performance case failed (" + std::string(name_of(g->failures.front().kind)) +
              "), so it scores 0; " + curve;
    return;
  }
  // The slowest passed measurement decides (there is normally one).
  const case_record* worst = nullptr;
  double ratio = std::numeric_limits<double>::quiet_NaN();
  for (const case_record& c : run.cases) {
    if (c.status != "passed" || group_of(c) != "performance") continue;
    const double r = number_of(c.property("ratio"));
    if (std::isnan(r) || r < 0) {
      worst = &c, ratio = r;
      break;
    }
    if (worst == nullptr || r > ratio) worst = &c, ratio = r;
  }
  if (std::isnan(ratio) || ratio < 0) {
    g->note = "The performance case recorded no ratio (\"" + worst->property("ratio") + "\"): a grader problem; " + curve;
    return;
  }
  g->earned = performance_score(ratio, rule);
  g->full = ratio <= rule.full_at;
  g->note = "Ratio " + ratio_text(ratio) + " (submission " + worst->property("submission_ms") + " ms, reference " +
            worst->property("reference_variant") + " " + worst->property("reference_ms") + " ms, size " +
            worst->property("size") + "); " + curve;
  // The families whose launcher takes `repeats` time it at the lab's repeats and at one, and score the
  // worse (grading/timed_ratio.hpp); the note says which, and whether repeats looked ignored.
  if (const std::string at_one = worst->property("ratio_at_one_repeat"); !at_one.empty()) {
    g->note += ". Timed at " + worst->property("repeats") + " repeats (ratio " +
               ratio_text(number_of(worst->property("ratio_at_repeats"))) + ") and at one repeat (ratio " +
               ratio_text(number_of(at_one)) + "): the worse is scored";
    if (const std::string said = worst->property("repeats_note"); !said.empty()) g->note += "; " + said;
  }
}

std::string verdict_of(const run_grade& g, const run_inputs& run) {
  if (!g.build_ok) return g.build_status;
  std::vector<std::string> parts;
  const std::string kinds = kinds_found(g, false);
  if (!kinds.empty()) parts.push_back(kinds);
  bool slow = false, all_full = true;
  std::vector<std::string> empty;  // why the groups in which no case ran are empty, each word once
  for (const group_grade& x : g.groups) {
    if (!x.graded()) continue;
    all_full = all_full && x.full;
    slow = slow || (x.name == "performance" && x.run() > 0 && x.failed == 0 && !x.full);
    if (!x.empty.empty() && std::find(empty.begin(), empty.end(), x.empty) == empty.end()) empty.push_back(x.empty);
  }
  if (all_full && !g.zeroed_hand_written && !g.zeroed_suite_symbols && run.problems.empty()) return "passed";
  if (slow) parts.push_back("slow");
  parts.insert(parts.end(), empty.begin(), empty.end());
  if (g.zeroed_hand_written) parts.push_back("hand_written");
  if (g.zeroed_suite_symbols) parts.push_back("suite_symbols");
  if (!run.problems.empty()) parts.push_back("grader_error");
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
  return out.empty() ? "passed" : out;
}

}  // namespace

double performance_score(double ratio, const group_rule& rule) {
  if (ratio <= rule.full_at) return rule.weight;
  if (ratio >= rule.zero_at) return 0;
  return rule.weight * (rule.zero_at - ratio) / (rule.zero_at - rule.full_at);
}

run_grade grade_run(const run_inputs& run, const rubric& rules) {
  run_grade out;
  out.build_status = run.build.status;
  out.build_ok = run.build.ok();
  out.seconds = run.seconds;
  out.groups = empty_groups(run, rules);
  if (out.build_ok) count_cases(run, &out.groups);
  for (group_grade& g : out.groups) {
    if (!out.build_ok) {
      g.note = not_built_reason(out.build_status);
    } else if (g.name == "performance") {
      // A rubric without a performance group still reports the ratio, on the default curve, at weight 0.
      group_rule r;
      if (const group_rule* rule = rules.find("performance")) r = *rule;
      score_performance(run, r, &g);
    } else if (g.name == "sanitizer") {
      score_sanitizer(run, &g, rules.scoring);
    } else {
      score_cases(&g, rules.scoring);
    }
    if (out.build_ok && g.run() == 0) name_the_empty_group(run, &g);
    g.earned = round2(g.earned);
    out.earned += g.earned;
    out.max_score += g.weight;
  }
  out.earned = round2(out.earned);
  out.max_score = round2(out.max_score);
  // Library code is library code whether the symbol scan found it or the grading process saw it.
  out.zeroed_hand_written = rules.hand_written && (!run.build.libraries.empty() || !run.runtime_libraries.empty());
  out.zeroed_suite_symbols = !run.build.suite_symbols.empty();
  const bool zeroed = out.zeroed_hand_written || out.zeroed_suite_symbols;
  for (group_grade& g : out.groups) g.score = zeroed ? 0.0 : g.earned;
  out.score = zeroed ? 0.0 : out.earned;
  out.verdict = verdict_of(out, run);
  return out;
}

std::string kinds_found(const run_grade& g, bool visible_only, const char* separator) {
  bool found[verdict_kind_count] = {};
  for (const group_grade& x : g.groups)
    if (!visible_only || !x.hidden())
      for (const failed_case& f : x.failures) found[static_cast<int>(f.kind)] = true;
  std::string out;
  for (int k = 0; k < verdict_kind_count; ++k)
    if (found[k]) out += (out.empty() ? "" : separator) + std::string(name_of(static_cast<verdict_kind>(k)));
  return out;
}

std::string group_title(const std::string& group) {
  if (group == "small_sizes") return "Small sizes";
  if (group == "odd_sizes") return "Odd sizes";
  if (group == "large_sizes") return "Large sizes";
  if (group == "configs") return "Launch configurations";
  if (group == "edge_inputs") return "Edge inputs";
  if (group == "sanitizer") return "Sanitizer";
  if (group == "performance") return "Performance";
  if (group == "other") return "Other cases";
  return group;
}

std::string counts_text(const group_grade& g) {
  if (g.run() == 0) return "";
  return std::to_string(g.passed) + " of " + std::to_string(g.run()) + " " + g.counted +
         (g.counted == "tools" ? " clean" : " passed");
}

std::string tool_of(const std::string& unit) { return unit.substr(unit.rfind('.') + 1); }

std::string replay_command(const grading_context& who, const case_record& c) {
  std::string command = "scripts/grade.sh --family " + shell_word(who.family) + " --submission " +
                        shell_word(who.submission) + " --seed " + std::to_string(who.seed);
  const std::string sanitizer_unit = "grade.sanitizer.";
  const bool under_tool = c.unit.rfind(sanitizer_unit, 0) == 0 && c.unit.size() > sanitizer_unit.size();
  if (under_tool) command += " --tool " + shell_word(tool_of(c.unit));
  const bool outside_any_case = under_tool && c.name.rfind(c.unit + ".OutsideAnyCase", 0) == 0;
  if (!outside_any_case) command += " --only " + shell_word(c.name, true);
  return command;
}

namespace {

std::string not_run_reason(const std::string& build_status) {
  if (build_status == "compile_error" || build_status == "link_error")
    return "not run: the submission did not build (" + build_status + ")";
  if (build_status == "signature_error")
    return "not run: the submission's functions do not match the contract (signature_error)";
  if (build_status == "load_error") return "not run: the submission did not load (load_error)";
  if (build_status == "missing") return "not run: the build step recorded no result (build.json missing)";
  return "not run: the build step reported " + build_status;
}

}  // namespace

std::string not_built_reason(const std::string& build_status, bool sentence) {
  std::string reason = not_run_reason(build_status);
  if (sentence) reason[0] = 'N';
  return reason;
}

}  // namespace kc::grade_report
