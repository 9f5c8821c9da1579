// Issue 19, "a submission can choose its own inputs": the grading process's seed is fixed before the
// submission's code can run, and a case that sees KCONFORM_SEED changed fails (grading/graded_case.hpp).
// A fake submission (fake_libraries/sets_seed_submission.cpp) sets it at load and in a call, through
// the grader's own loader (grading/submission_library.cpp). Each test is a process of its own (CTest
// runs every discovered case alone), so each starts from the latch made at static initialisation.
#include "fixtures/generators.hpp"
#include "grading/graded_case.hpp"
#include "grading/submission_library.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace kc::grading {
namespace {

constexpr std::uint64_t public_default_seed = 20261122;  // fixtures/generators.cpp

// The seed the environment gave the process, before any test changes it.
std::uint64_t seed_the_process_started_with() { return seed_in_environment().value_or(public_default_seed); }

// Latched before main(): even the first explicit call, made after the variable changed, returns the
// seed the process started with (fixtures/generators.cpp's static initialiser).
TEST(SeedLatch, TheSeedIsFixedBeforeMain) {
  const std::uint64_t started_with = seed_the_process_started_with();
  ASSERT_EQ(setenv("KCONFORM_SEED", std::to_string(started_with + 7).c_str(), 1), 0);
  EXPECT_EQ(base_seed(), started_with);
}

// The submission sets KCONFORM_SEED while it loads and again in a call: the seed stays the one the
// grading run chose, and the case that sees the change fails, saying what each says.
TEST(SeedLatch, ASubmissionThatSetsTheSeedCannotChangeItAndFailsTheCase) {
  const std::uint64_t started_with = seed_the_process_started_with();
  ASSERT_NE(started_with, 1u) << "the fake submission chooses seed 1: start this test with another";
  ASSERT_EQ(setenv("KCONFORM_SUBMISSION", KC_SETS_SEED_SUBMISSION, 1), 0);
  const auto choose = reinterpret_cast<int (*)(const char*)>(submission_entry("fake_choose_seed"));
  ASSERT_NE(choose, nullptr);
  EXPECT_EQ(seed_in_environment(), std::optional<std::uint64_t>(1)) << "its static initialiser did not run";
  EXPECT_EQ(base_seed(), started_with);
  EXPECT_NONFATAL_FAILURE(expect_seed_unchanged(), "the environment's KCONFORM_SEED changed while grading");

  ASSERT_EQ(choose(std::to_string(public_default_seed + 1).c_str()), 0);
  EXPECT_EQ(base_seed(), started_with);
  EXPECT_TRUE(seed_environment_changed());
}

// Nothing changed, nothing failed: the check is silent for a submission that leaves the variable be.
TEST(SeedLatch, AnUnchangedSeedPassesTheCheck) {
  (void)base_seed();
  EXPECT_FALSE(seed_environment_changed());
  expect_seed_unchanged();
}

}  // namespace
}  // namespace kc::grading
