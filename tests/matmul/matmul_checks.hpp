// The matmul suite's cases and its one check. check_matmul returns an AssertionResult so the
// known-bad tests count failures with the very same check the correct variants must pass.
#pragma once

#include "kernels/matmul/matmul.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kc::matmul::testing {

enum class input_kind {
  integer,     // uniform integers in [-8, 8]: every product and partial sum exact (|C| <= 64·k < 2^24)
  constants,   // the report's A = 1, B = 0.01: every C = k·0.01, within gamma(k)·|C|
  structured,  // A[i][j] = (i + 2j) mod 7 − 3, B[i][j] = (3i + j) mod 5 − 2: non-symmetric integers
               // that expose transposes and swapped operands; exact
};
const char* name_of(input_kind kind);

// One GoogleTest case: a variant at one shape, run with each of its configurations and inputs.
struct shape_case {
  const variant* v = nullptr;
  shape s;
  std::vector<input_kind> inputs;
  std::string name() const;  // "SharedTiledM33N65K17"
};

std::vector<shape> swept_shapes();
// (variant, shape) pairs for which the variant has at least one configuration.
std::vector<shape_case> sweep(std::span<const variant> variants);

// A check's inputs, drawn once per (shape, input kind) and shared by every configuration.
struct prepared_input;
std::shared_ptr<const prepared_input> prepare(const shape& s, input_kind kind, std::uint64_t seed);

// Poison C (guard-zoned), launch, synchronise, check guards, compare every element: exactly
// against the full reference for products up to 2^30 multiply-adds; beyond that with Freivalds'
// check (2 vectors, false pass <= 2^-22) plus exact checks of the first, last and 6 random rows
// and 256 random elements.
::testing::AssertionResult check_matmul(const variant& v, const matmul_config& config, const prepared_input& input,
                                        const launch_context& context);

// True when the last CUDA error is sticky (the context is gone for this process).
bool context_lost();

}  // namespace kc::matmul::testing
