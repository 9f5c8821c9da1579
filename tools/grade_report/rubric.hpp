// The grading rubric: how much each group of cases is worth and who sees it. A rubric is JSON;
// `kconform_grade_report default-rubric` prints the default one:
//
//   { "groups": {
//       "small_sizes": {"weight": 20}, "odd_sizes": {"weight": 25}, "large_sizes": {"weight": 15},
//       "configs": {"weight": 15}, "edge_inputs": {"weight": 5}, "sanitizer": {"weight": 10},
//       "performance": {"weight": 10, "full_at": 1.2, "zero_at": 3.0} },
//     "scoring": "fraction",        // or "all_or_nothing", for every group but performance
//     "hand_written": true,         // library code in the submission scores the whole run 0
//     "visibility": "visible",      // Gradescope visibility of the run and of every test by default
//     "failures_listed": 3 }        // failed cases listed per group
//
// A group may also set "visibility" (visible, hidden, after_due_date, after_published). Performance
// scores full marks at a ratio (submission / reference median) of full_at or less, nothing at
// zero_at or more, linearly in between. A known group the rubric leaves out weighs 0: it is still run
// and reported, not graded. Validation is strict: an unknown key, group or value is an error naming
// the field, since a misspelt weight would otherwise grade a class silently wrong.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kc::grade_report {

// The groups a case can score in, in the order reports list them. `other` holds cases that carry no
// group; it weighs 0 unless the rubric names it.
const std::vector<std::string>& known_groups();
bool is_visibility(std::string_view v);

struct group_rule {
  std::string name;
  double weight = 0;
  std::string visibility;  // empty: the rubric's
  double full_at = 1.2;    // performance only
  double zero_at = 3.0;
};

enum class scoring_rule { fraction, all_or_nothing };

struct rubric {
  std::vector<group_rule> groups;  // the groups the rubric names, in its order
  scoring_rule scoring = scoring_rule::fraction;
  bool hand_written = true;
  std::string visibility = "visible";
  int failures_listed = 3;

  const group_rule* find(std::string_view group) const;
  double max_score() const;
};

rubric default_rubric();

// nullopt on malformed JSON or an invalid rubric; `error` then says which field and why.
std::optional<rubric> parse_rubric(std::string_view text, std::string* error);

// The rubric as JSON, one group per line (parse_rubric reads it back to the same rubric).
std::string rubric_text(const rubric& r);

}  // namespace kc::grade_report
