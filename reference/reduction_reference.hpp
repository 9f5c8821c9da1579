// CPU reference for the reduction family: host-only C++ with OpenMP, independent of the GPU code.
//
// Accurate and deterministic: elements are accumulated in double with compensation (Sum2: each
// addition's rounding error carried) over fixed chunks, and the chunk totals combined in a fixed
// order, so the result does not depend on the thread count and is within about one double ulp of
// the exact sum (far below a float ulp).
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

// Many passes over one input (a suite sweeps every block size over each input, issue 21): the
// compensated sums of its base chunks of `base` consecutive elements, computed once in O(n), from
// which each pass is assembled in O(n / base). Kernels' chunks are block · elements-per-thread with
// blocks of whole warps, so 32 divides every chunk the registry's variants use.
inline constexpr std::size_t default_base_chunk = 32;
struct base_chunk_sums {
  std::size_t base = 0;           // elements per base chunk
  std::size_t n = 0;              // elements of the input they were taken from
  std::vector<block_sum> chunks;  // chunk i: elements [i·base, min(n, (i + 1)·base))
};
base_chunk_sums sum_base_chunks(std::span<const float> x, std::size_t base = default_base_chunk);

// What reduce_pass(x, chunk, grid) returns, assembled from base.chunks (the same compensated
// summation over the base sums in element order) when `chunk` is a multiple of base.base, else
// reduce_pass(x, chunk, grid) itself. `base` must come from this x (its n is checked).
//   Integer-valued x whose partial sums stay below 2^53·(their unit), such as 2^100-scaled
//     integers, are summed exactly by both, so the results are identical.
//   Otherwise both are within about 2u·sum|x| of the exact block sum (u = 2^-53): see the .cpp for
//     the bound of 4u·sum|x| on their difference, ~2^30 times below the smallest float tolerance.
std::vector<block_sum> reduce_pass(std::span<const float> x, const base_chunk_sums& base, std::size_t chunk,
                                   std::size_t grid);

}  // namespace kc::reference
