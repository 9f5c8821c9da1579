// What the access suite sweeps: variant × size × launch configuration (block or scenario, repeats)
// × input kind, and the inputs.
#pragma once

#include "kernels/access/access.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace kc::access::testing {

enum class input_kind {
  seed_data,  // seed 003's A[i] = i + 1, B[i] = i + 2 (so a gathered C = 2·idx + 3 names its idx);
              // offered for n <= 2^23 - 1, where every 2·idx + 3 < 2^24 is an exact float sum
  integer,    // non-zero integers ±[1, 1000] (products <= 10^6: exact; no division by zero)
};
const char* name_of(input_kind kind);
inline constexpr std::size_t seed_data_limit = (std::size_t{1} << 23) - 1;

// One GoogleTest case (fixtures/suite_case.hpp).
struct access_case {
  const variant* v = nullptr;
  std::size_t n = 0;
  access_config config;
  input_kind input = input_kind::seed_data;
  // The index seed is chosen at run time so that warp 0's group draw is one the seed's formula turns
  // into one group past the last (find_group_overflow_seed); config.seed is where the search starts.
  bool overflow_seed = false;

  // "NonCoalescedN1000B256R100SeedData", "VectorAddN1000S2B64R100Integer",
  // "SemiCoalescedN328193B256R100SeedDataOverflowSeed"
  std::string name() const;
  std::string unit() const;  // the variant
  double cost() const;       // ~ elements × repeats touched, in units of 2^20 (cuRAND init counts as 8 repeats)
};
void PrintTo(const access_case& c, std::ostream* os);

// 1, 31, 32, 33 (a partial, a whole and a warp-plus-one), 1000, 1535 (3·512 − 1: a last group of 511),
// 32768 (the seed's small size), 65537, 1000003 (a prime), 4194304 (the seed's large size).
std::vector<std::size_t> swept_sizes();
// OC: the seed's n = 32 ... 65,536 (powers of two) plus sizes between and below them.
std::vector<std::size_t> scenario_sizes();
// Blocks a variant is swept with: {32, 96, 256, 1000, 1024}, or whole warps {32, 96, 256, 992, 1024}.
std::vector<int> swept_blocks(const variant& v);

// The seed's 100 repeats everywhere; at n = 1000, block 256, also 1 and 7 (AccessRepeats).
inline constexpr int seed_repeats = 100;
// The index seed of every case at size n: from the run's base seed (KCONFORM_SEED) and n.
std::uint64_t index_seed(std::size_t n);

// The main sweep (every size × block, both inputs, 100 repeats) of the non-scenario variants.
std::vector<access_case> sweep(std::span<const variant> variants);
// Repeat counts 1 and 7 at n = 1000 (repeats must not change the result).
std::vector<access_case> repeat_cases(std::span<const variant> variants);
// AC3 (cuRAND) on an adversarial seed: n = 328,193 (641 whole groups: 2^32 mod 641 = 640, the
// largest remainder below 6.7 million, so the seed's group formula overflows most often there, and
// one element past them), block 256, seed data; the seed found by find_group_overflow_seed.
inline constexpr std::size_t overflow_seed_size = 641 * 512 + 1;
std::vector<access_case> overflow_seed_cases(std::span<const variant> variants);
// OC's sweep: S1 and S2 blocks at every scenario size, both inputs.
std::vector<access_case> scenario_sweep(std::span<const variant> variants);
// Everything above for one variant: the sweep a known-bad row faces is the correct one's.
std::vector<access_case> every_case_of(const variant& v);

struct access_input {
  std::vector<float> a, b;
};
access_input make_input(input_kind kind, std::size_t n, std::uint64_t seed);

}  // namespace kc::access::testing
