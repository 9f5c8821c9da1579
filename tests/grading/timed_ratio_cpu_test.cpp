// The rule that keeps an ignored `repeats` from paying (issue 20; grading/timed_ratio.hpp): the
// access-registry families' performance case times both rows at the lab's repeats and at one repeat
// and scores the worse ratio, noting when the submission's time does not grow with repeats.
#include "grading/timed_ratio.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kc::grading {
namespace {

TEST(RepeatsTiming, AnHonestSubmissionIsScoredAtTheLabsRepeatsWithoutANote) {
  // 10% slower than the reference at both: the ratio at 100 repeats is the worse one by a hair.
  const repeats_timing t{{1100, 1000}, {10.9, 10}, 100};
  EXPECT_FALSE(t.one_is_worse());
  EXPECT_DOUBLE_EQ(t.scored().ratio(), 1.1);
  EXPECT_EQ(t.note(), "");
}

// The hole: one pass whatever `repeats` says. At 10,000 repeats it looks 20x faster than the reference;
// at one it is twice as slow, and that is what is scored.
TEST(RepeatsTiming, IgnoringRepeatsIsScoredOnTheOnePassTimeAndNoted) {
  const repeats_timing t{{6, 3000}, {6, 3}, 10000};
  EXPECT_TRUE(t.one_is_worse());
  EXPECT_DOUBLE_EQ(t.scored().ratio(), 2.0);
  const std::string note = t.note();
  EXPECT_NE(note.find("repeats appears ignored"), std::string::npos) << note;
  EXPECT_NE(note.find("from 1 to 10000 repeats the submission's time grew 1x, the reference's 1000x"),
            std::string::npos)
      << note;
}

// A launcher with a fixed cost per call (a memset before its kernel) is slower at one repeat than at
// the lab's: the one-pass ratio is scored, and its time still grows with repeats, so no note.
TEST(RepeatsTiming, AFixedCostPerCallIsScoredAtOneRepeatWithoutANote) {
  const repeats_timing t{{1010, 1000}, {15, 10}, 100};
  EXPECT_TRUE(t.one_is_worse());
  EXPECT_DOUBLE_EQ(t.scored().ratio(), 1.5);
  EXPECT_EQ(t.note(), "");
}

// The note's threshold: the ratio at the repeats under half the ratio at one.
TEST(RepeatsTiming, TheNoteStartsBelowHalfTheOnePassRatio) {
  EXPECT_EQ((repeats_timing{{500, 1000}, {10, 10}, 100}).note(), "") << "ratio 0.5 against 1: exactly half";
  EXPECT_NE((repeats_timing{{499, 1000}, {10, 10}, 100}).note(), "");
}

// A zero or non-finite median in either half is the half scored, so the case refuses to score it
// (record_scored_ratio) instead of scoring the valid half: a launcher that does nothing at one repeat
// timed 0 there, and a 0 ratio there must not hand the score to the other half.
TEST(RepeatsTiming, AnInvalidHalfIsTheScoredOne) {
  const repeats_timing zero_at_one{{100.0, 100.0}, {0.0, 2.0}, 100};
  EXPECT_TRUE(zero_at_one.one_is_worse());
  EXPECT_FALSE(zero_at_one.scored().valid());
  const repeats_timing zero_at_repeats{{0.0, 100.0}, {2.0, 2.0}, 100};
  EXPECT_FALSE(zero_at_repeats.one_is_worse());
  EXPECT_FALSE(zero_at_repeats.scored().valid());
  const repeats_timing honest{{100.0, 100.0}, {2.0, 2.0}, 100};
  EXPECT_TRUE(honest.scored().valid());
  EXPECT_EQ(honest.note(), "");
}

}  // namespace
}  // namespace kc::grading
