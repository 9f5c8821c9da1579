// The CPU reference against a plain serial sum: exact on integers, accurate on reals, the same
// with any thread count, and reduce_pass assigning elements to blocks as the kernels do.
#include "fixtures/generators.hpp"
#include "reference/reduction_reference.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

namespace kc::reference {
namespace {

long double serial_sum(std::span<const float> x) {
  long double s = 0.0L;
  for (const float v : x) s += v;
  return s;
}

TEST(ReductionReference, ExactOnIntegerInputs) {
  std::vector<float> x(1'000'003);
  fill_uniform_integers(x, 7, -8, 8);
  EXPECT_EQ(reduce_sum(x), static_cast<double>(serial_sum(x)));
  EXPECT_GT(reduce_abs_sum(x), 0.0);
}

TEST(ReductionReference, AccurateOnRealInputs) {
  std::vector<float> x(1 << 20);
  fill_uniform_reals(x, 11, -1.0f, 1.0f);
  // long double accumulation has error <= n·2^-64·sum|x|: compare at a tighter scale than any
  // float tolerance (u = 2^-24) the suite derives from this reference.
  const double abs_sum = reduce_abs_sum(x);
  EXPECT_NEAR(reduce_sum(x), static_cast<double>(serial_sum(x)), 0x1p-40 * abs_sum);
}

TEST(ReductionReference, CancellationIsExact) {
  // 1e8 + 1 - 1e8 ... : pairs that cancel, leaving the small values; naive float sums lose them.
  std::vector<float> x;
  for (int k = 0; k < 1000; ++k) {
    x.push_back(1e8f);
    x.push_back(1.0f);
    x.push_back(-1e8f);
  }
  EXPECT_EQ(reduce_sum(x), 1000.0);
}

TEST(ReductionReference, IndependentOfThreadCount) {
  std::vector<float> x(3'000'017);
  fill_uniform_reals(x, 5, -1.0f, 1.0f);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const double one = reduce_sum(x);
  omp_set_num_threads(std::max(2, threads));
  const double many = reduce_sum(x);
  omp_set_num_threads(threads);
  EXPECT_EQ(one, many);
}

TEST(ReductionReference, PassAssignsChunksToBlocksGridStride) {
  std::vector<float> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  // Chunks of 64: 16 chunks (the last holds 40 elements) over 5 blocks: block b owns b, b+5, ...
  const std::vector<block_sum> blocks = reduce_pass(x, 64, 5);
  ASSERT_EQ(blocks.size(), 5u);
  for (std::size_t b = 0; b < 5; ++b) {
    double expected = 0.0;
    for (std::size_t c = b; c < 16; c += 5)
      for (std::size_t i = c * 64; i < std::min<std::size_t>(1000, (c + 1) * 64); ++i) expected += static_cast<double>(i);
    EXPECT_EQ(blocks[b].sum, expected) << "block " << b;
    EXPECT_EQ(blocks[b].abs_sum, expected) << "block " << b;
  }
  // More blocks than chunks: the extra blocks own nothing and sum to 0.
  const std::vector<block_sum> extra = reduce_pass(x, 512, 4);
  EXPECT_EQ(extra[2].sum, 0.0);
  EXPECT_EQ(extra[3].sum, 0.0);
}

}  // namespace
}  // namespace kc::reference
