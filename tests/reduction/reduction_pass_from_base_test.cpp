// Passes assembled from base-chunk sums (reference::reduce_pass with base_chunk_sums) against the
// direct pass they replace (issue 21): bit for bit on exact inputs, within the bound in
// reduction_reference.cpp on real ones, the direct pass itself where a chunk is no multiple of the
// base; and prepared_input::first_pass_reference, which uses them, against the direct pass.
#include "fixtures/generators.hpp"
#include "reference/reduction_reference.hpp"
#include "tests/reduction/reduction_cases.hpp"
#include "tests/reduction/reduction_checks.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace kc::reference {
namespace {

struct geometry {
  std::size_t n, chunk, grid;
};

std::string describe(const geometry& g) {
  return "n " + std::to_string(g.n) + ", chunk " + std::to_string(g.chunk) + ", grid " + std::to_string(g.grid);
}

// Edges (n below the base, n = chunk ± 1, grid 1, grid past the chunk count, a partial last
// chunk), then seeded random ones: n up to 2^17, chunk up to 64 bases, grid 1, the chunk count or
// a random number up to twice it.
std::vector<geometry> geometries(std::size_t base) {
  std::vector<geometry> all = {{1, base, 1},           {base - 1, base, 3},     {base, base, 1},
                               {base + 1, base, 1},    {base + 1, base, 2},     {1000, 2 * base, 1},
                               {1000, 2 * base, 100},  {35 * base + 3, 4 * base, 7}, {64 * base, 64 * base, 1}};
  for (std::uint64_t k = 0; k < 120; ++k) {
    const std::size_t n = 1 + hash64(base, 3 * k) % (std::size_t{1} << 17);
    const std::size_t chunk = base * (1 + hash64(base, 3 * k + 1) % 64);
    const std::size_t chunks = (n + chunk - 1) / chunk;
    const std::uint64_t r = hash64(base, 3 * k + 2);
    const std::size_t grid = r % 3 == 0 ? 1 : r % 3 == 1 ? chunks : 1 + (r / 3) % (2 * chunks + 1);
    all.push_back({n, chunk, grid});
  }
  return all;
}

// Every block of `assembled` against `direct`: bit for bit when `units_of_abs_sum` is 0, else
// within that many u = 2^-53 of the direct block's sum|x|. Reports the first block that is not.
::testing::AssertionResult agree(const std::vector<block_sum>& direct, const std::vector<block_sum>& assembled,
                                 double units_of_abs_sum) {
  if (direct.size() != assembled.size())
    return ::testing::AssertionFailure() << assembled.size() << " blocks, the direct pass has " << direct.size();
  for (std::size_t b = 0; b < direct.size(); ++b) {
    const double allowed = units_of_abs_sum * 0x1p-53 * direct[b].abs_sum;
    const bool same = units_of_abs_sum == 0.0
                          ? std::bit_cast<std::uint64_t>(direct[b].sum) == std::bit_cast<std::uint64_t>(assembled[b].sum) &&
                                std::bit_cast<std::uint64_t>(direct[b].abs_sum) == std::bit_cast<std::uint64_t>(assembled[b].abs_sum)
                          : std::fabs(direct[b].sum - assembled[b].sum) <= allowed &&
                                std::fabs(direct[b].abs_sum - assembled[b].abs_sum) <= allowed;
    if (!same) {
      std::ostringstream out;
      out << std::hexfloat << "block " << b << ": sum " << assembled[b].sum << ", abs_sum " << assembled[b].abs_sum
          << "; direct pass " << direct[b].sum << ", " << direct[b].abs_sum << " (allowed " << allowed << ")";
      return ::testing::AssertionFailure() << out.str();
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(ReductionPassFromBase, IntegerInputsIdenticalToDirectPass) {
  std::size_t nonzero_blocks = 0;
  for (const std::size_t base : {std::size_t{32}, std::size_t{64}, std::size_t{3}})
    for (const geometry& g : geometries(base)) {
      SCOPED_TRACE("base " + std::to_string(base) + ", " + describe(g));
      std::vector<float> x(g.n), scaled(g.n);
      fill_uniform_integers(x, g.n + base, -8, 8);
      // The suite's large_magnitude input: exact in double too, its partial sums far below 2^53 units.
      fill_nonzero_integers(scaled, g.n + base, 8);
      for (float& v : scaled) v *= 0x1p100f;
      for (const std::vector<float>* input : {&x, &scaled}) {
        const std::vector<block_sum> direct = reduce_pass(*input, g.chunk, g.grid);
        ASSERT_TRUE(agree(direct, reduce_pass(*input, sum_base_chunks(*input, base), g.chunk, g.grid), 0.0));
        for (const block_sum& b : direct) nonzero_blocks += b.sum != 0.0;
      }
    }
  EXPECT_GT(nonzero_blocks, 1000u);  // not a comparison of zeros
}

// Random signs and 24-bit mantissas over 2^-40 .. 2^40: partial sums that double cannot hold, so
// the summation order matters (uniform [-1, 1) floats, multiples of 2^-24 but for the few smallest,
// are summed nearly exactly in double by any order: no test of the bound).
void fill_wide_range(std::span<float> x, std::uint64_t seed) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::uint64_t bits = hash64(seed, i);
    const float mantissa = 1.0f + static_cast<float>(bits & 0x7fffff) * 0x1p-23f;
    x[i] = std::ldexp((bits >> 63) != 0 ? -mantissa : mantissa, static_cast<int>((bits >> 23) % 81) - 40);
  }
}

TEST(ReductionPassFromBase, RealInputsWithinFourUnitsOfDirectPass) {
  // reduction_reference.cpp: |assembled − direct| <= (3u + 3(k·u)^2)·sum|x| for k elements per
  // block, under 4u·sum|x| here (k <= 2^17). Uncompensated, either sum's error grows with k.
  for (const std::size_t base : {std::size_t{32}, std::size_t{64}, std::size_t{3}})
    for (const geometry& g : geometries(base)) {
      SCOPED_TRACE("base " + std::to_string(base) + ", " + describe(g));
      std::vector<float> uniform(g.n), wide(g.n);
      fill_uniform_reals(uniform, g.n + base, -1.0f, 1.0f);
      fill_wide_range(wide, g.n + base);
      for (const std::vector<float>* x : {&uniform, &wide})
        ASSERT_TRUE(agree(reduce_pass(*x, g.chunk, g.grid), reduce_pass(*x, sum_base_chunks(*x, base), g.chunk, g.grid), 4.0));
    }
}

TEST(ReductionPassFromBase, ChunkNotAMultipleOfBaseIsTheDirectPass) {
  std::vector<float> x(100'003);
  fill_uniform_reals(x, 17, -1.0f, 1.0f);
  const base_chunk_sums base = sum_base_chunks(x, 32);
  for (const std::size_t chunk : {1, 16, 31, 33, 48, 100, 1000, 1025})
    for (const std::size_t grid : {std::size_t{1}, std::size_t{7}, (x.size() + chunk - 1) / chunk}) {
      SCOPED_TRACE("chunk " + std::to_string(chunk) + ", grid " + std::to_string(grid));
      ASSERT_TRUE(agree(reduce_pass(x, chunk, grid), reduce_pass(x, base, chunk, grid), 0.0));
    }
}

TEST(ReductionPassFromBase, RefusesBaseSumsOfAnotherInputSize) {
  std::vector<float> x(1000, 1.0f);
  const base_chunk_sums base = sum_base_chunks(std::span(x).first(999));
  EXPECT_THROW((void)reduce_pass(x, base, 64, 4), std::invalid_argument);
  EXPECT_THROW((void)sum_base_chunks(x, 0), std::invalid_argument);
}

TEST(ReductionPassFromBase, OneWrongBaseSumIsSeen) {
  // The comparison above can fail: a base sum off by one (of one input element) moves its block.
  std::vector<float> x(10'000);
  fill_uniform_integers(x, 23, -8, 8);
  base_chunk_sums base = sum_base_chunks(x, 32);
  base.chunks[123].sum += 1.0;
  EXPECT_FALSE(agree(reduce_pass(x, 256, 5), reduce_pass(x, base, 256, 5), 0.0));
  EXPECT_FALSE(agree(reduce_pass(x, 256, 5), reduce_pass(x, base, 256, 5), 4.0));
}

}  // namespace
}  // namespace kc::reference

namespace kc::reduction::testing {
namespace {

// The suite's own path: what check_one_pass and the full reduction's first pass compare against,
// for the blocks × elements per thread registry rows sweep and grids they may get, over
// more geometries than the per-input cache keeps. Exact inputs bit for bit (their compare is exact).
TEST(ReductionPassFromBase, FirstPassReferenceMatchesDirectPass) {
  for (const input_kind kind : {input_kind::integer, input_kind::large_magnitude, input_kind::alternating, input_kind::real}) {
    prepared_input input;  // host side only: no device buffer is allocated
    input.host = make_input(kind, 100'003, 29);
    ASSERT_EQ(input.host.exact(), kind != input_kind::real);
    const double units = input.host.exact() ? 0.0 : 4.0;
    const std::span<const float> x = input.host.values;
    // A chunk no multiple of 32 first: it must not need (or break) the base sums.
    ASSERT_TRUE(reference::agree(reference::reduce_pass(x, 48, 7), *input.first_pass_reference(48, 7), 0.0));
    // Powers of two and whole warps (variant::swept_blocks), elements per thread 1, 2, 4.
    for (const std::size_t per_thread : {1, 2, 4})
      for (const std::size_t block : {32, 64, 96, 128, 224, 256, 512, 992, 1024})
        for (const std::size_t grid : {(x.size() + block * per_thread - 1) / (block * per_thread), std::size_t{1}, std::size_t{7}}) {
          SCOPED_TRACE(std::string(name_of(kind)) + ", chunk " + std::to_string(block * per_thread) + ", grid " +
                       std::to_string(grid));
          ASSERT_TRUE(reference::agree(reference::reduce_pass(x, block * per_thread, grid),
                                       *input.first_pass_reference(block * per_thread, grid), units));
        }
  }
}

}  // namespace
}  // namespace kc::reduction::testing
