#include "tools/grade_report/rubric.hpp"

#include "fixtures/json_text.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kc::grade_report {

const std::vector<std::string>& known_groups() {
  static const std::vector<std::string> groups = {"small_sizes", "odd_sizes",  "large_sizes", "configs",
                                                  "edge_inputs", "sanitizer", "performance", "other"};
  return groups;
}

bool is_visibility(std::string_view v) {
  return v == "visible" || v == "hidden" || v == "after_due_date" || v == "after_published";
}

const group_rule* rubric::find(std::string_view group) const {
  for (const group_rule& g : groups)
    if (g.name == group) return &g;
  return nullptr;
}

double rubric::max_score() const {
  double total = 0;
  for (const group_rule& g : groups) total += g.weight;
  return total;
}

rubric default_rubric() {
  rubric r;
  for (const auto& [name, weight] : {std::pair{"small_sizes", 20}, {"odd_sizes", 25}, {"large_sizes", 15},
                                     {"configs", 15}, {"edge_inputs", 5}, {"sanitizer", 10}, {"performance", 10}}) {
    group_rule g;
    g.name = name;
    g.weight = weight;
    r.groups.push_back(g);
  }
  return r;
}

namespace {

// Each reader sets `error` to "<field>: <what was wrong>" and returns false.
bool fail(std::string* error, const std::string& field, const std::string& why) {
  *error = field + ": " + why;
  return false;
}

std::string got(const json::value& v) { return std::string("got ") + v.kind_name() + " " + json::dump(v); }

bool read_number(const json::value& v, const std::string& field, double* out, std::string* error) {
  const double* x = v.as_number();
  if (x == nullptr || !std::isfinite(*x) || *x < 0) return fail(error, field, "expected a number >= 0, " + got(v));
  *out = *x;
  return true;
}

bool read_visibility(const json::value& v, const std::string& field, std::string* out, std::string* error) {
  const std::string* s = v.as_string();
  if (s == nullptr || !is_visibility(*s))
    return fail(error, field, "expected one of visible, hidden, after_due_date, after_published; " + got(v));
  *out = *s;
  return true;
}

bool read_group(const std::string& name, const json::value& v, group_rule* g, std::string* error) {
  const std::string field = "groups." + name;
  const json::object* members = v.as_object();
  if (members == nullptr) return fail(error, field, "expected an object, " + got(v));
  g->name = name;
  const bool performance = name == "performance";
  for (const auto& [key, item] : *members) {
    const std::string sub = field + "." + key;
    if (key == "weight") {
      if (!read_number(item, sub, &g->weight, error)) return false;
    } else if (key == "visibility") {
      if (!read_visibility(item, sub, &g->visibility, error)) return false;
    } else if (performance && key == "full_at") {
      if (!read_number(item, sub, &g->full_at, error)) return false;
    } else if (performance && key == "zero_at") {
      if (!read_number(item, sub, &g->zero_at, error)) return false;
    } else {
      return fail(error, sub,
                  std::string("unknown key (allowed: weight, visibility") + (performance ? ", full_at, zero_at)" : ")"));
    }
  }
  if (members->empty() || v.find("weight") == nullptr) return fail(error, field + ".weight", "missing");
  if (performance && !(g->full_at > 0 && g->full_at < g->zero_at))
    return fail(error, field, "needs 0 < full_at < zero_at");
  return true;
}

bool read_groups(const json::value& v, rubric* r, std::string* error) {
  const json::object* members = v.as_object();
  if (members == nullptr) return fail(error, "groups", "expected an object, " + got(v));
  r->groups.clear();
  for (const auto& [name, item] : *members) {
    const auto& known = known_groups();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return fail(error, "groups." + name, "unknown group (known: " + list + ")");
    }
    group_rule g;
    if (!read_group(name, item, &g, error)) return false;
    r->groups.push_back(g);
  }
  return true;
}

bool read_rubric(const json::value& doc, rubric* r, std::string* error) {
  const json::object* members = doc.as_object();
  if (members == nullptr) return fail(error, "rubric", "expected an object, got " + std::string(doc.kind_name()));
  if (doc.find("groups") == nullptr) return fail(error, "groups", "missing");
  for (const auto& [key, item] : *members) {
    if (key == "groups") {
      if (!read_groups(item, r, error)) return false;
    } else if (key == "scoring") {
      const std::string* s = item.as_string();
      if (s == nullptr || (*s != "fraction" && *s != "all_or_nothing"))
        return fail(error, key, "expected \"fraction\" or \"all_or_nothing\", " + got(item));
      r->scoring = *s == "fraction" ? scoring_rule::fraction : scoring_rule::all_or_nothing;
    } else if (key == "hand_written") {
      if (item.as_bool() == nullptr) return fail(error, key, "expected true or false, " + got(item));
      r->hand_written = *item.as_bool();
    } else if (key == "visibility") {
      if (!read_visibility(item, key, &r->visibility, error)) return false;
    } else if (key == "failures_listed") {
      const double* n = item.as_number();
      if (n == nullptr || *n < 0 || *n > 1000 || *n != std::floor(*n))
        return fail(error, key, "expected a whole number from 0 to 1000, " + got(item));
      r->failures_listed = static_cast<int>(*n);
    } else {
      return fail(error, key, "unknown key (allowed: groups, scoring, hand_written, visibility, failures_listed)");
    }
  }
  return true;
}

}  // namespace

std::optional<rubric> parse_rubric(std::string_view text, std::string* error) {
  std::string why;
  const std::optional<json::value> doc = json::parse(text, &why);
  if (!doc) {
    if (error != nullptr) *error = "not valid JSON: " + why;
    return std::nullopt;
  }
  rubric r;  // keys the file leaves out keep the default rubric's values, groups excepted
  if (!read_rubric(*doc, &r, &why)) {
    if (error != nullptr) *error = why;
    return std::nullopt;
  }
  return r;
}

std::string rubric_text(const rubric& r) {
  std::string text = "{\n  \"groups\": {\n";
  for (std::size_t i = 0; i < r.groups.size(); ++i) {
    const group_rule& g = r.groups[i];
    json::object rule{{"weight", g.weight}};
    if (!g.visibility.empty()) rule.emplace_back("visibility", g.visibility);
    if (g.name == "performance") {
      rule.emplace_back("full_at", g.full_at);
      rule.emplace_back("zero_at", g.zero_at);
    }
    text += "    " + json::quote(g.name) + ": " + json::dump(rule) + (i + 1 < r.groups.size() ? ",\n" : "\n");
  }
  text += "  },\n  \"scoring\": " +
          json::quote(r.scoring == scoring_rule::fraction ? "fraction" : "all_or_nothing") +
          ",\n  \"hand_written\": " + (r.hand_written ? "true" : "false") +
          ",\n  \"visibility\": " + json::quote(r.visibility) +
          ",\n  \"failures_listed\": " + std::to_string(r.failures_listed) + "\n}\n";
  return text;
}

}  // namespace kc::grade_report
