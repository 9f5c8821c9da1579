#include "reference/reduction_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace kc::reference {

namespace {

// Compensated summation (Sum2 of Ogita, Rump and Oishi): the carry sums each addition's exact
// rounding error, found by Knuth's TwoSum, and is added at the end. Neumaier's form (Fast2Sum on
// the larger of sum and x) finds the same error, which is unique, so the results are the same bit
// for bit; TwoSum has no data-dependent branch, which in 32-element base chunks (the sum still small
// against x) mispredicts: 2^24 floats into base sums took 55 ms with the branch, 20 ms without (2 cores).
struct compensated {
  double sum = 0.0;
  double carry = 0.0;
  void add(double x) {
    const double t = sum + x;
    const double x_part = t - sum;
    carry += (sum - (t - x_part)) + (x - x_part);
    sum = t;
  }
  double value() const { return sum + carry; }
};

constexpr std::size_t chunk_size = std::size_t{1} << 14;

template <class Map>
double chunked_sum(std::span<const float> x, Map map) {
  const std::size_t chunks = (x.size() + chunk_size - 1) / chunk_size;
  std::vector<compensated> partial(chunks);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < static_cast<std::int64_t>(chunks); ++c) {
    const std::size_t begin = static_cast<std::size_t>(c) * chunk_size;
    const std::size_t end = std::min(x.size(), begin + chunk_size);
    for (std::size_t i = begin; i < end; ++i) partial[c].add(map(x[i]));
  }
  compensated total;  // fixed order: independent of the thread count
  for (const compensated& p : partial) {
    total.add(p.sum);
    total.add(p.carry);
  }
  return total.value();
}

// Block b of a pass owns chunks b, b + grid, b + 2·grid, ... of `per_chunk` consecutive terms (the
// last chunk may be short); term(i) is {value, |value|} of term i. The direct pass sums elements,
// the one assembled from base sums sums the base chunks' sums.
template <class Term>
std::vector<block_sum> strided_block_sums(std::size_t terms, std::size_t per_chunk, std::size_t grid, Term term) {
  const std::size_t chunks = (terms + per_chunk - 1) / per_chunk;
  std::vector<block_sum> blocks(grid);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t b = 0; b < static_cast<std::int64_t>(grid); ++b) {
    compensated sum, abs_sum;
    for (std::size_t c = static_cast<std::size_t>(b); c < chunks; c += grid) {
      const std::size_t begin = c * per_chunk;
      const std::size_t end = std::min(terms, begin + per_chunk);
      for (std::size_t i = begin; i < end; ++i) {
        const auto [value, magnitude] = term(i);
        sum.add(value);
        abs_sum.add(magnitude);
      }
    }
    blocks[b] = {sum.value(), abs_sum.value()};
  }
  return blocks;
}

// The elements of x as terms of strided_block_sums.
auto element_terms(std::span<const float> x) {
  return [x](std::size_t i) { return std::pair{static_cast<double>(x[i]), std::fabs(static_cast<double>(x[i]))}; };
}

}  // namespace

double reduce_sum(std::span<const float> x) {
  return chunked_sum(x, [](float v) { return static_cast<double>(v); });
}

double reduce_abs_sum(std::span<const float> x) {
  return chunked_sum(x, [](float v) { return std::fabs(static_cast<double>(v)); });
}

std::vector<block_sum> reduce_pass(std::span<const float> x, std::size_t chunk, std::size_t grid) {
  if (chunk == 0 || grid == 0) throw std::invalid_argument("reduce_pass: chunk and grid must be positive");
  return strided_block_sums(x.size(), chunk, grid, element_terms(x));
}

base_chunk_sums sum_base_chunks(std::span<const float> x, std::size_t base) {
  if (base == 0) throw std::invalid_argument("sum_base_chunks: base must be positive");
  // A pass with one block per base chunk.
  const std::size_t chunks = (x.size() + base - 1) / base;
  return {base, x.size(), strided_block_sums(x.size(), base, chunks, element_terms(x))};
}

// Why the two agree. Both are Sum2 of Ogita, Rump and Oishi (the carry sums each addition's exact
// rounding error in double and is added at the end), whose result over terms p_1..p_k is within
// u·|sum p| + gamma_k^2·sum|p| of the exact sum (u = 2^-53). For a block of k elements with exact
// sum S and A = sum|x|:
//   reduce_pass:  |r − S| <= u|S| + gamma_k^2·A
//   here:         each base value v_c = sum + carry of its chunk (exact sum S_c, A_c) is within
//                 u|S_c| + gamma_base^2·A_c, so sum v_c is within (u + gamma_base^2)·A of S, and
//                 Sum2 over the v_c adds u|sum v_c| + gamma_k^2·sum|v_c|: |R − S| <= u|S| + u·A + 2·gamma_k^2·A
//   so |R − r| <= (3u + 3·(k·u)^2)·A, under 4u·A for k <= 2^25 elements per block (4.4e-16·A).
// The checks' smallest tolerance is float gamma_8·A ~ 2^-21·A (depth >= 7 for a 32-thread block,
// +1 in tolerance_for), about 2^30 times larger, so the choice of path cannot move a verdict.
// Exact inputs: when A < 2^53 units of a power of two dividing every x_i (the suite's integers,
// and those scaled by 2^100, keep A below 2^53 units even at n = 2^31 + 17), every partial sum of either order is
// representable, every TwoSum error term is 0, and both return the exact S: identical.
std::vector<block_sum> reduce_pass(std::span<const float> x, const base_chunk_sums& base, std::size_t chunk,
                                   std::size_t grid) {
  if (base.n != x.size() || base.base == 0)
    throw std::invalid_argument("reduce_pass: base sums of " + std::to_string(base.n) + " elements for an input of " +
                                std::to_string(x.size()));
  if (chunk == 0 || chunk % base.base != 0) return reduce_pass(x, chunk, grid);
  if (grid == 0) throw std::invalid_argument("reduce_pass: chunk and grid must be positive");
  // Base chunks per pass chunk; as many pass chunks over the base sums as over x (ceil of ceil).
  return strided_block_sums(base.chunks.size(), chunk / base.base, grid, [&](std::size_t i) {
    return std::pair{base.chunks[i].sum, base.chunks[i].abs_sum};
  });
}

}  // namespace kc::reference
