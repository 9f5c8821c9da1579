#include "tools/grade_report/input_rule.hpp"

#include <set>

namespace kc::grade_report {

namespace {

bool is_full_reduction(const json::value& traits) {
  const json::value* family = traits.find("family");
  const json::value* kind = traits.find("kind");
  return family != nullptr && family->as_string() != nullptr && *family->as_string() == "reduction" &&
         kind != nullptr && kind->as_string() != nullptr && *kind->as_string() == "full";
}

bool in_hidden_group(const case_record& c, const run_grade& grade) {
  const std::string group = c.property("group");
  for (const group_grade& g : grade.groups)
    if (g.name == group) return g.hidden();
  return false;
}

}  // namespace

std::string input_rule_lines(const run_inputs& run, const run_grade& grade) {
  // Per case, once: a case that ran again (out of memory, a fresh process) counts by its last record,
  // and the sanitizer runs repeat cases already counted.
  std::set<std::string> recorded, overwritten;
  for (const case_record& c : run.cases) {
    if (c.unit.starts_with("grade.sanitizer.") || in_hidden_group(c, grade)) continue;
    const std::string said = c.property("input_overwritten");
    if (said.empty()) continue;
    recorded.insert(c.name);
    if (said == "1") overwritten.insert(c.name);
    else overwritten.erase(c.name);
  }
  if (recorded.empty() && !is_full_reduction(run.build.traits)) return "";

  std::string out =
      "\nInput rule: a KC_REDUCE_FULL reduction may overwrite its input in[] (in-place multi-pass drivers do); "
      "every call gets a fresh copy, and destroys_input applies to KC_REDUCE_PASS only.";
  const std::size_t m = recorded.size(), n = overwritten.size();
  if (n > 0)
    out += " Your kernel overwrote its input in " + std::to_string(n) + " of " + std::to_string(m) +
           " cases: allowed for KC_REDUCE_FULL by the contract (it would not be for a library routine that "
           "promises a const input).";
  else if (m > 0)
    out += m == 1 ? std::string(" Your kernel left its input unchanged in the case checked.")
                  : " Your kernel left its input unchanged in all " + std::to_string(m) + " cases checked.";
  return out + "\n";
}

}  // namespace kc::grade_report
