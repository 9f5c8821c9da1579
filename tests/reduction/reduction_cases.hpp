// What the reduction suite sweeps: variant × size × launch config × input kind, and the inputs.
#pragma once

#include "kernels/reduction/reduction.hpp"

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

namespace kc::reduction::testing {

enum class input_kind {
  integer,          // non-zero integers ±[1, R]: compared exactly at every size (see make_input)
  real,             // uniform in [-1, 1): compared within the summation error bound
  ones,             // all 1.0
  alternating,      // +m, -m, +m, ... (heavy cancellation)
  large_magnitude,  // the integer input scaled by 2^100: exact, and overflows if mishandled
};
const char* name_of(input_kind kind);

// One GoogleTest case (fixtures/suite_case.hpp): a variant at one size, one launch configuration
// and one input kind.
struct reduction_case {
  const variant* v = nullptr;
  std::size_t n = 0;
  reduce_config config;  // block 0 for libraries that choose their own; grid 0 = the variant's own
  input_kind input = input_kind::integer;

  // "SequentialAddressingN1025B256Integer", "GridStrideUnrollN4097B32G7Real" (CamelCase,
  // alphanumeric: the test's parameter name).
  std::string name() const;
  std::string unit() const;  // the variant: one process runs all of a variant's cases
  double cost() const;       // ~ elements touched, in units of 2^20
};
// "unit:SequentialAddressing cost:1.001" (what tools/runner reads from the test listing).
void PrintTo(const reduction_case& c, std::ostream* os);

// The sizes every variant is tested at: edges around warps and blocks, primes, the report's 2^24,
// sizes past it, and a few seeded random ones (fixed seed: the test list must not change between
// CTest's listing and its run).
std::vector<std::size_t> swept_sizes();

// The launch configurations a variant is swept with at size n, from its own registry rule:
// every block of variant::swept_blocks() with the variant's own grid; and for grid-stride variants,
// at n <= 2^20 + 3, explicit grids of 1 and 7 blocks at its smallest and largest block too, so each
// thread loops many times (the grid-stride path the automatic grid barely exercises).
std::vector<reduce_config> swept_configs(const variant& v, std::size_t n);

// Every config x input at each size, ordered variant, size, input, config (so consecutive cases
// share a prepared input: fixtures/input_cache.hpp).
std::vector<reduction_case> cases_at(const variant& v, std::size_t n, std::initializer_list<input_kind> inputs,
                                     const std::vector<reduce_config>& configs);
// The main sweep (integer and real inputs) at every swept size, for the given variants.
std::vector<reduction_case> sweep(std::span<const variant> variants);
// Only the variants that have a single pass (not the libraries).
std::vector<reduction_case> sweep_pass_variants(std::span<const variant> variants);
// Unusual inputs (ones, alternating signs, large magnitudes) at a few sizes.
std::vector<reduction_case> edge_input_cases(std::span<const variant> variants);
// Seed 000's explicit launches for K4/K5 (its passes 2-3 launch twice the blocks they need; the
// extra blocks must write 0), run as one-pass cases of the variants that have them.
std::vector<reduction_case> report_grid_cases(std::span<const variant> variants);
// Everything above for one variant: the sweep a known-bad row faces is this, the correct one's.
std::vector<reduction_case> every_case_of(const variant& v);

struct reduction_input {
  std::vector<float> values;
  // Every value is an integer multiple of this power of two (0: real-valued).
  double exact_unit = 0.0;
  // A bound on |every partial sum| of any summation tree fixed independently of the values
  // (deterministic, or failing with probability <= 2^-64: see random_sign_partial_sum_bound).
  double partial_sum_bound = 0.0;
  // Exact compare: every partial sum is then a multiple of exact_unit below 2^24·exact_unit,
  // representable in float, so every addition is exact whatever the order.
  bool exact() const { return exact_unit > 0.0 && partial_sum_bound <= 0x1p24 * exact_unit; }
};

// Integer: R = clamp(2^24 / n, 1, 8) and values uniform over ±[1, R] (no zeros). For n·R <= 2^24
// every partial sum is bounded by sum|x| <= 2^24 (deterministic). Past that (n > 2^24, R = 1,
// dense ±1) the signs are independent and symmetric, so by Hoeffding and a union bound over at most
// 4n partial sums every |partial sum| < R·sqrt(2n·(ln 8n + 64 ln 2)) except with probability 2^-64
// per summation tree (n = 2^31 + 17: about 5.4e5, far below 2^24). Either way the compare is exact, and since no value is
// zero, dropping or duplicating any one element changes the sum; reading x_j in place of x_i goes
// unseen only when x_j = x_i, probability 1/(2R) <= 1/2 per misplaced element per input.
reduction_input make_input(input_kind kind, std::size_t n, std::uint64_t seed);

}  // namespace kc::reduction::testing
