// The check every conv2d variant goes through. It returns a check_result (passed, failed or
// refused) instead of asserting, so the known-bad test runs the very same check and counts how many
// cases fail, refusals apart.
//
// Around the launch (as every family): the input drawn once per (size, input kind) and kept
// pristine on the device; a and b guard-zoned (the guards hold a NaN canary, so an out-of-bounds
// read brings a NaN into b); b filled with NaN bytes (0xFF) before the launch — these are "what b
// held before", which the border must keep; a copied in on a non-blocking stream behind a delay
// kernel and the launch queued on that stream; then the guards, a unchanged, and every element of b:
//
//   border    (row 0, row ni−1, column 0, column nj−1; everything when ni < 3 or nj < 3): bit for
//             bit the 0xFF bytes it held before the launch. A kernel that writes the border, with
//             any value, fails.
//   interior  within the error bound of the CPU reference (below). A point never written keeps the
//             NaN and fails.
//
// Error bound (tolerance): each interior b[i][j] is Σ_{k=1..9} c_k·a_k with the same double
// coefficients on host and device, so only the GPU's roundings count: 9 products and 8 additions in
// any order and association, with or without FMA contraction, put every term through at most 9
// roundings (one product, at most 8 additions on its path through any summation tree; an FMA only
// removes the product's), so |b̂ − b| <= γ_9·Σ|c_k·a_k| (Higham (3.5)), γ_9 = 9u / (1 − 9u), u = 2^-53.
// The reference is b accumulated in long double (9 roundings with u = 2^-64: at most
// γ_9(2^-64)·Σ|c_k·a_k|, 1/2048 of the GPU's bound) and rounded once to double (2^-53·|ref|). Hence
//
//   |gpu − ref| <= (γ_9(2^-53) + γ_9(2^-64))·Σ|c_k·a_k| + 2^-53·|ref|,
//
// evaluated in long double and rounded up (conv2d_tolerance). Σ|c_k·a_k| comes from the reference,
// rounded up. Nothing in it depends on the data's scale, so it is the bound at every size.
//
// PolyBench's own figure (percentDiff > 0.05% over the interior, reference/polybench/percent_diff.hpp)
// is reported beside the verdict in every failure and as the "polybench_check" property of every
// case; the verdict is the bound's.
#pragma once

#include "fixtures/check_result.hpp"
#include "fixtures/device_buffer.hpp"
#include "reference/polybench/percent_diff.hpp"
#include "tests/polybench/conv2d_cases.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace kc::polybench::conv2d::testing {

// One (size, input kind)'s data, shared by every variant and configuration of a process.
struct prepared_input {
  size_2d size;
  input_kind kind = input_kind::polybench;
  std::uint64_t seed = 0;
  std::vector<double> a;
  // What b must hold after a launch: the reference in the interior, the 0xFF poison on the border.
  std::vector<double> expected;
  std::vector<double> magnitude;  // Σ|c_k·a_k| per interior point (0 on the border)
  device_buffer<double> a_pristine;
};
// The host half (data and reference), without a GPU: for the CPU tests.
std::shared_ptr<prepared_input> make_host_input(input_kind kind, size_2d size, std::uint64_t seed);
// Host half plus the pristine device copy.
std::shared_ptr<const prepared_input> prepare_input(input_kind kind, size_2d size, std::uint64_t seed);
// The input of a case, drawn once per process (fixtures/input_cache.hpp); its seed comes from the
// run's base seed, the size and the kind.
std::shared_ptr<const prepared_input> input_for(const conv2d_case& c);

check_result check_conv2d(const conv2d_case& c, const prepared_input& input);

// ---- the pieces of the check, exposed for the CPU tests ----

// The bound above for one interior point.
double conv2d_tolerance(double reference, double magnitude);
// The value b holds before every launch: all bytes 0xFF (a NaN).
double poison_value();
bool is_border(std::size_t i, std::size_t j, size_2d size);

// What the comparison of one b with the expected one found (host only).
struct b_verdict {
  std::size_t border_checked = 0, border_changed = 0;
  std::size_t interior_checked = 0, interior_wrong = 0, interior_unwritten = 0;
  std::string listed;  // the first offenders, one per line: "b[0][5] = 0 (border: must keep its prior bytes)"
  reference::polybench::percent_diff_summary polybench;
  bool ok() const { return border_changed == 0 && interior_wrong == 0; }
  std::string describe() const;  // the counts and the listing, ready for a failure message
};
b_verdict judge_output(const prepared_input& input, std::span<const double> actual);

}  // namespace kc::polybench::conv2d::testing
