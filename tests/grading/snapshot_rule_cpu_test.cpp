// The timed-output rule (grading/snapshot_rule.hpp): a timed call's output must hold, within the
// judge's rounding band, what both untimed calls wrote. Each test can fail: the rule is applied to
// answers built to sit on either side of it.
#include "grading/snapshot_rule.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

namespace kc::grading {
namespace {

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& values) {
  std::vector<unsigned char> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <class T>
std::size_t first_outside(const std::vector<T>& got, const std::vector<T>& first, const std::vector<T>& second) {
  const auto g = bytes_of(got), a = bytes_of(first), b = bytes_of(second);
  return first_outside_rounding(sizeof(T), g.data(), a.data(), b.data(), g.size());
}

TEST(SnapshotRule, TheSameBitsPass) {
  const std::vector<float> answer{1.0f, -2.5f, 3e10f};
  EXPECT_EQ(first_outside(answer, answer, answer), answer.size());
}

TEST(SnapshotRule, ASummationOrdersRoundingPassesAndMoreDoesNot) {
  const std::vector<double> first{1000.0, 5.0};
  const std::vector<double> second{1000.0 + 1e-9, 5.0};  // another atomics order
  EXPECT_EQ(first_outside(std::vector<double>{1000.0 + 2e-9, 5.0}, first, second), 2u);
  EXPECT_EQ(first_outside(std::vector<double>{1000.5, 5.0}, first, second), 0u) << "5e-4 of it is not rounding";
  EXPECT_EQ(first_outside(std::vector<double>{1000.0, 5.001}, first, second), 1u);
}

TEST(SnapshotRule, TheSubmissionsSecondAnswerCannotWidenTheBand) {
  // A second untimed answer of +inf (or the largest float) must not admit any timed value: the band
  // is the judge's, not the distance between the submission's own two answers.
  const std::vector<float> first{42.0f};
  for (const float wide : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::max()}) {
    EXPECT_EQ(first_outside(std::vector<float>{0.0f}, first, std::vector<float>{wide}), 0u) << wide;
    EXPECT_EQ(first_outside(std::vector<float>{42.0f}, first, std::vector<float>{wide}), 0u)
        << "the two untimed answers disagree, so no timed value holds both";
  }
}

TEST(SnapshotRule, PoisonLeftInTheOutputNeverPasses) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> poisoned{1.0f, 2.0f};
  std::memset(&poisoned[1], 0xFF, sizeof(float));  // the poison: all bits set
  EXPECT_EQ(first_outside(poisoned, std::vector<float>{1.0f, 2.0f}, std::vector<float>{1.0f, 2.0f}), 1u);
  EXPECT_EQ(first_outside(std::vector<float>{nan}, std::vector<float>{2.0f}, std::vector<float>{2.0f}), 0u);
}

TEST(SnapshotRule, AnOutputThatIsPoisonUntimedTooIsHeldBitForBit) {
  // A conv2d border keeps the 0xFF fill: the same bits timed and untimed are the same answer.
  std::vector<double> border(1);
  std::memset(border.data(), 0xFF, sizeof(double));
  EXPECT_EQ(first_outside(border, border, border), 1u);
  EXPECT_EQ(first_outside(std::vector<double>{0.0}, border, border), 0u);
}

}  // namespace
}  // namespace kc::grading
