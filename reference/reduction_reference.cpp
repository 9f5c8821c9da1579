#include "reference/reduction_reference.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace kc::reference {

namespace {

// Neumaier's improved Kahan summation: carries the rounding error of each addition.
struct compensated {
  double sum = 0.0;
  double carry = 0.0;
  void add(double x) {
    const double t = sum + x;
    carry += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
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

}  // namespace

double reduce_sum(std::span<const float> x) {
  return chunked_sum(x, [](float v) { return static_cast<double>(v); });
}

double reduce_abs_sum(std::span<const float> x) {
  return chunked_sum(x, [](float v) { return std::fabs(static_cast<double>(v)); });
}

std::vector<block_sum> reduce_pass(std::span<const float> x, std::size_t chunk, std::size_t grid) {
  if (chunk == 0 || grid == 0) throw std::invalid_argument("reduce_pass: chunk and grid must be positive");
  const std::size_t chunks = (x.size() + chunk - 1) / chunk;
  std::vector<block_sum> blocks(grid);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t b = 0; b < static_cast<std::int64_t>(grid); ++b) {
    compensated sum, abs_sum;
    for (std::size_t c = static_cast<std::size_t>(b); c < chunks; c += grid) {
      const std::size_t begin = c * chunk;
      const std::size_t end = std::min(x.size(), begin + chunk);
      for (std::size_t i = begin; i < end; ++i) {
        sum.add(x[i]);
        abs_sum.add(std::fabs(static_cast<double>(x[i])));
      }
    }
    blocks[b] = {sum.value(), abs_sum.value()};
  }
  return blocks;
}

}  // namespace kc::reference
