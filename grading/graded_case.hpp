// A family's case, as the grader runs it: the family's own case (and its own check), plus the rubric
// group it scores in (docs/grading.md). The group is also the case's unit, so each group runs in
// processes of its own (a submission that hangs in one group does not stop another) and the groups
// run side by side.
//
// Groups, first match wins (a case scores in one group only):
//   large_sizes  the family's large inputs (reduction n >= 2^20; matmul m·n·k >= 2^27)
//   edge_inputs  unusual inputs at the other sizes (reduction: ones, alternating, large magnitudes;
//                matmul: the report's constants and the wide integers that TF32 cannot hold)
//   configs      any other case at a configuration other than the submission's default (its first
//                declared, or for reductions block 256 where allowed)
//   odd_sizes    sizes that are not whole warps (a dimension not a multiple of 32; a reduction n not
//                a power of two)
//   small_sizes  the rest: aligned sizes at the default configuration
// Within a group the known hard cases come first: the least aligned sizes (where the seeds' bugs
// were caught), then by cost.
#pragma once

#include "fixtures/generators.hpp"
#include "fixtures/suite_case.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace kc::grading {

enum class group { small_sizes, odd_sizes, large_sizes, configs, edge_inputs };

inline const char* name_of(group g) {
  switch (g) {
    case group::small_sizes: return "small_sizes";
    case group::odd_sizes: return "odd_sizes";
    case group::large_sizes: return "large_sizes";
    case group::configs: return "configs";
    case group::edge_inputs: return "edge_inputs";
  }
  return "unknown";
}

template <class Inner>
struct graded_case {
  Inner inner;
  group scored_in = group::small_sizes;
  int alignment = 0;        // how aligned its size is (0 = least): hard cases first
  std::string description;  // "n = 1025, block 256, grid auto, integer input"
  double work = 0;          // elements or multiply-adds: the report's "smallest failing case"

  std::string name() const { return inner.name(); }
  std::string unit() const { return name_of(scored_in); }
  double cost() const { return inner.cost(); }
};

template <class Inner>
void PrintTo(const graded_case<Inner>& c, std::ostream* os) {
  print_case(c, os);
}

// Hard cases first within each group; stable, so cases sharing an input stay together.
template <class Inner>
std::vector<graded_case<Inner>> hardest_first(std::vector<graded_case<Inner>> cases) {
  std::stable_sort(cases.begin(), cases.end(), [](const graded_case<Inner>& x, const graded_case<Inner>& y) {
    return x.alignment < y.alignment;
  });
  return cases;
}

// The seed a case's inputs came from is the one fixed before the submission was loaded
// (fixtures/generators.hpp). The submission's code runs in this process, so it could still set
// KCONFORM_SEED, hoping to choose its inputs: a case that sees the variable changed, at its start
// (an earlier case changed it) or at its end (this one did, the submission's load included), fails
// saying so, once. tools/grade_report also fails a case whose recorded seed is not the run's.
inline void expect_seed_unchanged() {
  if (!seed_environment_changed()) return;
  static const ::testing::TestInfo* already_failed = nullptr;  // the start and the end: one failure
  const ::testing::TestInfo* current = ::testing::UnitTest::GetInstance()->current_test_info();
  if (current != nullptr && current == already_failed) return;
  already_failed = current;
  ADD_FAILURE() << "the environment's KCONFORM_SEED changed while grading: the inputs come from the seed fixed "
                   "before the submission was loaded ("
                << base_seed() << "), and the environment now says "
                << (seed_in_environment() ? std::to_string(*seed_in_environment()) : std::string("nothing"))
                << ". A submission must not set KCONFORM_SEED.";
}

// What every graded case records beside its verdict, for tools/grade_report: first the seed.
inline void record_and_check_seed() {
  ::testing::Test::RecordProperty("seed", std::to_string(base_seed()));
  expect_seed_unchanged();
}

template <class Inner>
void record_grading_properties(const graded_case<Inner>& c) {
  record_and_check_seed();
  ::testing::Test::RecordProperty("group", name_of(c.scored_in));
  ::testing::Test::RecordProperty("case", c.description);
  ::testing::Test::RecordProperty("work", std::to_string(static_cast<long long>(c.work)));
}

}  // namespace kc::grading
