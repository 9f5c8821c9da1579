// The two checks every reduction variant goes through. They return a check_result (passed, failed
// or refused) instead of asserting, so the known-bad tests run the very same checks and count how
// many fail, with refusals counted apart.
//
//   check_one_pass        one launch: every block's partial sum against the CPU reference, and
//                         the input unchanged unless the row declares destroys_input
//   check_full_reduction  n -> 1 through the multi-pass driver (or the library): the total, and
//                         (exact inputs, the generic driver) every pass's partial sums exactly
//
// Each: the input drawn once per (size, input kind) and kept pristine on the device; outputs
// poisoned and guard-zoned; the input copied in on a non-blocking stream *behind a delay kernel*,
// the launch queued on that stream, and nothing synchronised until it is queued — a launcher that
// ignores its stream reads poison. Exact where every partial sum is representable
// (reduction_input::exact), else within the rounding-error bound of the summation depth.
#pragma once

#include "fixtures/check_result.hpp"
#include "fixtures/device_buffer.hpp"
#include "reference/reduction_reference.hpp"
#include "tests/reduction/reduction_cases.hpp"

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace kc::reduction::testing {

struct prepared_input {
  input_kind kind = input_kind::integer;
  std::uint64_t seed = 0;
  reduction_input host;
  double total = 0.0;      // reference sum
  double abs_total = 0.0;  // reference sum of |x|
  device_buffer<float> pristine;

  // The reference block sums of a first pass over the host values with this geometry, computed
  // once per (chunk, grid): check_one_pass and the full reduction's first pass need the same ones,
  // and variants of one geometry share them. The last few geometries are kept. Each is assembled
  // from the input's 32-element base sums, taken once on first use (issue 21: a direct pass is
  // O(n) per geometry, ~2 s at n = 2^31 + 17, and a variant sweeps every block size), in O(n/32);
  // identical to reference::reduce_pass on exact inputs (reduction_reference.hpp says why).
  std::shared_ptr<const std::vector<reference::block_sum>> first_pass_reference(std::size_t chunk, std::size_t grid) const;

 private:
  struct geometry_sums {
    std::size_t chunk = 0, grid = 0;
    std::shared_ptr<const std::vector<reference::block_sum>> sums;
  };
  mutable std::mutex first_pass_mutex_;
  mutable std::deque<geometry_sums> first_passes_;
  // n/32 × 16 bytes (an eighth of the host values' size), only once a chunk is a multiple of 32.
  mutable std::optional<reference::base_chunk_sums> base_sums_;
};
std::shared_ptr<const prepared_input> prepare_input(input_kind kind, std::size_t n, std::uint64_t seed);
// The input of a case, drawn once per (n, input kind, round) in a process and shared by every
// variant and configuration that needs it (fixtures/input_cache.hpp). Its seed comes from the run's
// base seed (KCONFORM_SEED), n, the kind and the round (known-bad rows re-draw in later rounds).
std::shared_ptr<const prepared_input> input_for(const reduction_case& c, int round = 0);

check_result check_one_pass(const reduction_case& c, const prepared_input& input);
// input_words_changed, when given: once the reduction has run without a fault, how many of the
// input buffer's words differ from the pristine input (unset if it never got that far). For an n -> 1
// reduction of its own (a KC_REDUCE_FULL submission, which the contract lets overwrite in[]) that is
// what it did to its input; for the multi-pass driver it is the driver's own ping-pong.
check_result check_full_reduction(const reduction_case& c, const prepared_input& input,
                                  std::optional<std::size_t>* input_words_changed = nullptr);

// Allowed |gpu − reference| for a sum with the given summation depth and sum|x|.
//   0 when input.exact(): every partial sum is a representable multiple of exact_unit.
//   else gamma(depth + 1)·sum|x| (Higham's bound for a summation tree of that depth). The +1 covers
//     the reference's own error: a compensated double sum, within ~2^-52·sum|x|, far below the
//     extra u·sum|x| that one more level of gamma allows.
// Where this bound is not discriminating: gamma(d)·sum|x| grows like d·n·u while the sum of n
// uniform values in [-1, 1) spreads like 0.58·sqrt(n), so past n ~ 2^20 a real-input total check
// cannot see one dropped element (at 2^26 + 1 the bound is larger than the spread of the answer).
// That is why every size also runs the exact Integer input; the per-block one-pass check, whose
// sum|x| is only a block's, stays discriminating at every n.
double tolerance_for(std::size_t depth, double abs_sum, const reduction_input& input);

// Summation depth assumed for cub::DeviceReduce::Sum, whose tree we do not control: each thread
// of an even-share grid of at least one 32-thread warp per SM accumulates at most
// ceil(n / (32·SMs)) items in sequence, plus at most 32 per-thread items of one tile, plus block
// and grid trees of depth <= 32. Conservative; the integer inputs check CUB exactly regardless.
std::size_t library_summation_depth(std::size_t n);

}  // namespace kc::reduction::testing
