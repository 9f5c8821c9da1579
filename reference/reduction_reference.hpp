// CPU reference for the reduction family: host-only C++ with OpenMP, independent of the GPU code.
//
// Accurate and deterministic: elements are accumulated in double with Neumaier compensation over
// fixed chunks, and the chunk totals combined in a fixed order, so the result does not depend on
// the thread count and is within about one double ulp of the exact sum (far below a float ulp).
// For integer-valued inputs with |sum| < 2^53 it is exact.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace kc::reference {

struct block_sum {
  double sum = 0.0;      // the exact-to-double sum of the block's elements
  double abs_sum = 0.0;  // sum of |x|: the scale of the block's rounding-error bound
};

// Sum of all elements.
double reduce_sum(std::span<const float> x);
// Sum of |x_i|.
double reduce_abs_sum(std::span<const float> x);

// The expected output of one reduction pass: inputs in chunks of `chunk` consecutive elements,
// block b owning chunks b, b + grid, b + 2·grid, ... (one chunk per block when grid >= chunks).
std::vector<block_sum> reduce_pass(std::span<const float> x, std::size_t chunk, std::size_t grid);

}  // namespace kc::reference
