#include "tools/runner/unit_choice.hpp"

#include <charconv>
#include <map>
#include <set>

namespace kc::runner {

std::string unit_choice::reported() const {
  if (slices == 1) return unit;
  return unit + "." + std::to_string(slice) + "of" + std::to_string(slices);
}

namespace {

std::optional<int> positive(const std::string& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

}  // namespace

std::optional<unit_choice> parse_unit_choice(const std::string& text) {
  unit_choice choice;
  const auto at = text.rfind('@');
  choice.unit = text.substr(0, at);
  if (choice.unit.empty()) return std::nullopt;
  if (at == std::string::npos) return choice;
  const std::string slice = text.substr(at + 1);
  const auto slash = slice.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::optional<int> i = positive(slice.substr(0, slash)), n = positive(slice.substr(slash + 1));
  if (!i || !n || *i > *n) return std::nullopt;
  choice.slice = *i;
  choice.slices = *n;
  return choice;
}

std::string unit_choices_problem(const std::vector<unit_choice>& choices) {
  std::map<std::string, int> cut_in;  // unit -> slice count (1: whole)
  std::set<std::string> seen;
  for (const unit_choice& c : choices) {
    if (!seen.insert(c.reported()).second) return "unit " + c.reported() + " is given twice";
    const auto [it, fresh] = cut_in.emplace(c.unit, c.slices);
    if (!fresh && it->second != c.slices)
      return "unit " + c.unit + " is given " +
             (it->second == 1 || c.slices == 1 ? std::string("whole and in slices")
                                               : "in " + std::to_string(it->second) + " and in " + std::to_string(c.slices) + " slices");
  }
  return {};
}

std::vector<chosen_case> choose_cases(const std::vector<listed_case>& listing, const std::vector<unit_choice>& choices,
                                      const std::function<bool(const listed_case&)>& wanted) {
  // Each chosen unit's wanted cases, in listing order; then each choice takes its slice of them.
  std::map<std::string, std::vector<std::size_t>> of_unit;  // unit -> indices into listing
  for (const unit_choice& c : choices) of_unit.emplace(c.unit, std::vector<std::size_t>{});
  for (std::size_t k = 0; k < listing.size(); ++k)
    if (const auto it = of_unit.find(listing[k].unit); it != of_unit.end() && wanted(listing[k])) it->second.push_back(k);
  std::map<std::size_t, std::string> reported;  // listing index -> reported unit
  for (const unit_choice& c : choices) {
    const std::vector<std::size_t>& cases = of_unit[c.unit];
    const std::size_t n = static_cast<std::size_t>(c.slices), i = static_cast<std::size_t>(c.slice);
    const std::size_t begin = cases.size() * (i - 1) / n, end = cases.size() * i / n;
    for (std::size_t k = begin; k < end; ++k) reported.emplace(cases[k], c.reported());
  }
  std::vector<chosen_case> chosen;
  for (const auto& [k, unit] : reported) chosen.push_back({listing[k].name, unit});
  return chosen;
}

}  // namespace kc::runner
