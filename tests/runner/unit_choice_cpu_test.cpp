// tools/runner/unit_choice.hpp: which cases a --units run takes. A unit given whole takes its wanted
// cases; its slices <unit>@<i>/<n> take contiguous parts of them that together are each case exactly
// once, cut after the filters (a case filtered out is in no slice); lists that would run a case twice
// or leave some out (whole and sliced, a slice twice, slices cut in different counts) are refused.
#include "tools/runner/unit_choice.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
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
}

// Units A (7 cases) and B (3) interleaved in the listing; C (2) not chosen.
std::vector<listed_case> listing() {
  std::vector<listed_case> out;
  const char* units[] = {"A", "B", "A", "C", "A", "A", "B", "A", "C", "A", "B", "A"};
  int k = 0;
  for (const char* u : units) out.push_back({std::string(u) + "/case" + std::to_string(k++), u, 1});
  return out;
}

TEST(UnitChoice, SlicesTogetherTakeEachWantedCaseOnceInListingOrder) {
  const auto all = [](const listed_case&) { return true; };
  for (int n = 1; n <= 8; ++n) {  // more slices than cases too: some slices are empty
    std::vector<std::string> texts = {"B"};
    for (int i = 1; i <= n; ++i) texts.push_back("A@" + std::to_string(i) + "/" + std::to_string(n));
    const std::vector<chosen_case> chosen = choose_cases(listing(), choices(texts), all);
    std::map<std::string, int> times;
    std::vector<std::string> a_order;
    for (const chosen_case& c : chosen) {
      ++times[c.name];
      if (c.name[0] == 'A') a_order.push_back(c.reported_unit);
      if (c.name[0] == 'B') EXPECT_EQ(c.reported_unit, "B");
      EXPECT_NE(c.name[0], 'C') << c.name << ": not chosen";
    }
    EXPECT_EQ(chosen.size(), 10u) << n << " slices";
    for (const auto& [name, count] : times) EXPECT_EQ(count, 1) << name;
    // Contiguous: the slices' names never go back to an earlier slice.
    for (std::size_t k = 1; k < a_order.size(); ++k) EXPECT_LE(a_order[k - 1], a_order[k]) << n << " slices";
    // Balanced: 7 cases in n slices, each of floor or ceil of 7/n.
    std::map<std::string, int> per_slice;
    for (const std::string& s : a_order) ++per_slice[s];
    for (const auto& [slice, count] : per_slice) EXPECT_LE(count, (7 + n - 1) / n) << slice;
  }
}

TEST(UnitChoice, SlicesAreCutFromTheCasesTheFiltersLeave) {
  // Without A's first four cases (case0, case2, case4, case5) A has 3 wanted cases: slices of 1 each.
  const auto wanted = [](const listed_case& c) {
    return c.name != "A/case0" && c.name != "A/case2" && c.name != "A/case4" && c.name != "A/case5";
  };
  const std::vector<chosen_case> chosen = choose_cases(listing(), choices({"A@1/3", "A@2/3", "A@3/3"}), wanted);
  ASSERT_EQ(chosen.size(), 3u);
  EXPECT_EQ(chosen[0].name, "A/case7");
  EXPECT_EQ(chosen[0].reported_unit, "A.1of3");
  EXPECT_EQ(chosen[1].name, "A/case9");
  EXPECT_EQ(chosen[1].reported_unit, "A.2of3");
  EXPECT_EQ(chosen[2].name, "A/case11");
  EXPECT_EQ(chosen[2].reported_unit, "A.3of3");
}

}  // namespace
}  // namespace kc::runner
