// What the reduction suite sweeps: variant × size × block × input kind, and the inputs it draws.
#pragma once

#include "kernels/reduction/reduction.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kc::reduction::testing {

enum class input_kind {
  integer,          // integers, sized so every partial sum is exact: compared exactly
  real,             // uniform in [-1, 1): compared within the summation error bound
  ones,             // all 1.0
  alternating,      // +m, -m, +m, ... (heavy cancellation)
  large_magnitude,  // the integer input scaled by 2^100: exact, and overflows if mishandled
};
const char* name_of(input_kind kind);

struct reduction_case {
  const variant* v = nullptr;
  std::size_t n = 0;
  int block = 0;  // 0 for libraries that choose their own
  input_kind input = input_kind::integer;

  reduce_config config() const { return {block, 0}; }
  // "SequentialAddressingN1025B256Integer" (CamelCase, alphanumeric: a valid test name).
  std::string name() const;
};

// The sizes every variant is tested at: edges around warps and blocks, primes, the report's 2^24,
// sizes past it, and a few seeded random ones (fixed seed: the test list must not change between
// CTest's discovery and its run).
std::vector<std::size_t> swept_sizes();

// One GoogleTest case: a variant at one size, checked at every block it supports with each of
// `inputs`. (CTest starts a process per test case, and a CUDA context costs about a second to
// create on the GPU box, so a case covers the block × input axes inside one process; every
// failure still names its block, input and seed.)
struct size_case {
  const variant* v = nullptr;
  std::size_t n = 0;
  std::vector<input_kind> inputs;
  const char* suffix = "";  // distinguishes sweeps over the same sizes, e.g. "EdgeInputs"

  std::vector<reduction_case> cases() const;  // every block × input at this size
  std::string name() const;                   // "SequentialAddressingN1025"
};

// The main sweep (integer and real inputs) at every swept size, for the given variants.
std::vector<size_case> sweep(std::span<const variant> variants);
// Only the variants that have a single pass (not the libraries).
std::vector<size_case> sweep_pass_variants(std::span<const variant> variants);
// Unusual inputs (ones, alternating signs, large magnitudes) at a few sizes.
std::vector<size_case> edge_input_cases(std::span<const variant> variants);

struct reduction_input {
  std::vector<float> values;
  // Every value is an integer multiple of this power of two (0: real-valued). With
  // sum|x| <= 2^24 · exact_unit, every partial sum is representable, so any summation order is exact.
  double exact_unit = 0.0;
};
reduction_input make_input(input_kind kind, std::size_t n, std::uint64_t seed);

}  // namespace kc::reduction::testing
