// tools/runner/unit_choice.hpp: which cases a --units run takes. A unit given whole takes its wanted
// cases; its slices <unit>@<i>/<n> take contiguous parts of them that together are each case exactly
// once, cut after the filters (a case filtered out is in no slice); lists that would run a case twice
// or leave some out (whole and sliced, a slice twice, slices cut in different counts) are refused.
#include "tools/runner/unit_choice.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kc::runner {
namespace {

TEST(UnitChoice, ReadsAUnitOrASliceOfIt) {
  const auto whole = parse_unit_choice("PatchPerThread");
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->unit, "PatchPerThread");
  EXPECT_EQ(whole->slices, 1);
  EXPECT_EQ(whole->reported(), "PatchPerThread");
  const auto slice = parse_unit_choice("PatchPerThread@2/3");
  ASSERT_TRUE(slice.has_value());
  EXPECT_EQ(slice->unit, "PatchPerThread");
  EXPECT_EQ(slice->slice, 2);
  EXPECT_EQ(slice->slices, 3);
  EXPECT_EQ(slice->reported(), "PatchPerThread.2of3") << "the full run's shard name";
  EXPECT_EQ(parse_unit_choice("SharedTiled.Large")->unit, "SharedTiled.Large");
  for (const char* bad : {"", "@1/2", "A@", "A@1", "A@0/2", "A@3/2", "A@1/0", "A@x/2", "A@1/2x", "A@-1/2", "A@1/"})
    EXPECT_FALSE(parse_unit_choice(bad).has_value()) << "'" << bad << "'";
}

std::vector<unit_choice> choices(const std::vector<std::string>& texts) {
  std::vector<unit_choice> out;
  for (const std::string& t : texts) out.push_back(*parse_unit_choice(t));
  return out;
}

TEST(UnitChoice, RefusesListsThatWouldRunACaseTwiceOrMissSome) {
  EXPECT_EQ(unit_choices_problem(choices({"A", "B@1/2", "B@2/2"})), "");
  EXPECT_NE(unit_choices_problem(choices({"A", "A"})), "");
  EXPECT_NE(unit_choices_problem(choices({"B@1/2", "B@1/2"})), "");
  EXPECT_NE(unit_choices_problem(choices({"B", "B@1/2"})), "") << "whole and sliced";
  EXPECT_NE(unit_choices_problem(choices({"B@1/2", "B"})), "") << "sliced and whole";
  EXPECT_NE(unit_choices_problem(choices({"B@1/2", "B@2/3"})), "") << "slices of different cuts overlap";
  EXPECT_NE(unit_choices_problem(choices({"A", "A@1/1"})), "") << "one slice of one is the unit itself";
}

// Units A (7 cases) and B (3) interleaved in the listing; C (2) not chosen.
std::vector<listed_case> listing() {
  std::vector<listed_case> out;
  const char* units[] = {"A", "B", "A", "C", "A", "A", "B", "A", "C", "A", "B", "A"};
  int k = 0;
  for (const char* u : units) out.push_back({std::string(u) + "/case" + std::to_string(k++), u, 1});
  return out;
}

// The k in "<unit>/case<k>": the case's place in the listing.
int place(const std::string& name) { return std::stoi(name.substr(name.find("case") + 4)); }

TEST(UnitChoice, SlicesTogetherTakeEachWantedCaseOnceInListingOrder) {
  const auto all = [](const listed_case&) { return true; };
  const std::vector<int> a_places = {0, 2, 4, 5, 7, 9, 11};  // A's cases in listing(), in order
  for (int n = 1; n <= 12; ++n) {  // more slices than cases too: some slices are empty
    // Given out of order, and B before A: the cases still come in listing order.
    std::vector<std::string> texts = {"B"};
    for (int i = n; i >= 1; --i) texts.push_back("A@" + std::to_string(i) + "/" + std::to_string(n));
    const std::vector<chosen_case> chosen = choose_cases(listing(), choices(texts), all);
    ASSERT_EQ(chosen.size(), 10u) << n << " slices";
    std::map<std::string, std::vector<int>> of_slice;  // reported unit -> places of its cases
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      if (k > 0) EXPECT_LT(place(chosen[k - 1].name), place(chosen[k].name)) << "listing order, " << n << " slices";
      EXPECT_NE(chosen[k].name[0], 'C') << chosen[k].name << ": not chosen";
      if (chosen[k].name[0] == 'B') EXPECT_EQ(chosen[k].reported_unit, "B");
      if (chosen[k].name[0] == 'A') of_slice[chosen[k].reported_unit].push_back(place(chosen[k].name));
    }
    // Slice i of n holds exactly A's cases [7(i-1)/n, 7i/n): --shard's cut, so every case once.
    for (int i = 1; i <= n; ++i) {
      const std::string slice = n == 1 ? "A" : "A." + std::to_string(i) + "of" + std::to_string(n);
      const std::vector<int> expected(a_places.begin() + 7 * (i - 1) / n, a_places.begin() + 7 * i / n);
      const auto found = of_slice.find(slice);
      EXPECT_EQ(found == of_slice.end() ? std::vector<int>{} : found->second, expected) << slice;
    }
  }
}

TEST(UnitChoice, SlicesAreCutFromTheCasesTheFiltersLeave) {
  // Without A's first four cases (case0, case2, case4, case5) A has 3 wanted cases: slices of 1 each.
  const auto wanted = [](const listed_case& c) {
    return c.name != "A/case0" && c.name != "A/case2" && c.name != "A/case4" && c.name != "A/case5";
  };
  const std::vector<chosen_case> chosen = choose_cases(listing(), choices({"A@1/3", "A@2/3", "A@3/3"}), wanted);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"A/case7", "A.1of3"}, {"A/case9", "A.2of3"}, {"A/case11", "A.3of3"}};
  ASSERT_EQ(chosen.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    EXPECT_EQ(chosen[k].name, expected[k].first);
    EXPECT_EQ(chosen[k].reported_unit, expected[k].second) << chosen[k].name;
  }
}

}  // namespace
}  // namespace kc::runner
