#include "grading/reduction_submission.hpp"

#include "grading/contract/kconform_reduction_submission.h"
#include "grading/submission_library.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

namespace kc::grading {
namespace {

using pass_entry = const char* (*)(float*, float*, size_t, int, int, cudaStream_t);
using full_entry = const char* (*)(float*, float*, size_t, int, float*, cudaStream_t);
using scratch_entry = size_t (*)(size_t, int);

launch_status launch_submission_pass(float* in, float* out, const reduction::pass_geometry& g, cudaStream_t stream) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<pass_entry>("kc_reduction_pass", &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(in, out, g.n, g.block, static_cast<int>(g.grid), stream), "kc_reduction_pass");
}

// The grader's scratch: the result in its first float, the submission's own scratch from float 64
// on — 256 bytes in, so it is as aligned as cudaMalloc's memory (CUB's temporary storage needs that).
constexpr std::size_t own_scratch_offset = 64;

std::size_t submission_scratch(const reduction::variant&, std::size_t n, const reduction::reduce_config& config) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<scratch_entry>("kc_reduction_scratch_floats", &missing);
  if (entry == nullptr) throw std::runtime_error(missing.message());
  return own_scratch_offset + entry(n, config.block);
}

reduction::reduce_outcome reduce_submission(const reduction::variant& v, float* a, std::size_t n, float* scratch,
                                            std::size_t scratch_elements, const reduction::reduce_config& config,
                                            cudaStream_t stream, const reduction::pass_observer*) {
  reduction::reduce_outcome outcome;
  if (n == 0) {
    outcome.status = launch_status::refused("n = 0: there is nothing to reduce (n must be >= 1)");
    return outcome;
  }
  const auto entry = find_entry<full_entry>("kc_reduction_full", &outcome.status);
  if (entry == nullptr) return outcome;
  if (scratch_elements < submission_scratch(v, n, config)) {
    outcome.status = launch_status::refused("scratch too small for the submission's kc_reduction_scratch_floats");
    return outcome;
  }
  outcome.status = status_after_entry(entry(a, scratch, n, config.block, scratch + own_scratch_offset, stream), "kc_reduction_full");
  outcome.result = scratch;
  return outcome;
}

reduction::block_rule block_rule_of(const json::value& traits) {
  return {traits_int(traits, "min_block", 32), traits_int(traits, "max_block", 1024),
          traits_int(traits, "power_of_two_blocks", 0) != 0, std::max(1, traits_int(traits, "block_multiple", 1))};
}

std::vector<reduction::variant> build_row() {
  const std::optional<json::value>& traits = submission_traits();
  if (!traits) return {};
  const json::value& t = *traits;
  reduction::variant v{"Submission", "student", "submission", "the submission under grading"};
  const json::value* kind = t.find("kind");
  if (kind != nullptr && kind->as_string() != nullptr && *kind->as_string() == "full") {
    v.reduce = reduce_submission;
    v.scratch = submission_scratch;
    // Its summation order is unknown (atomics, its own tree): the bound is the worst order's, a
    // serial sum, gamma(n)·sum|x|. Integer inputs are exact at every size whatever the order.
    v.library_depth = [](std::size_t n) { return n; };
    if (traits_int(t, "min_block", 0) > 0) v.full_blocks = block_rule_of(t);
  } else {
    v.pass.elements_per_thread = std::max(1, traits_int(t, "elements_per_thread", 1));
    v.pass.grid = traits_int(t, "grid_stride", 0) != 0 ? reduction::grid_policy::grid_stride
                                                       : reduction::grid_policy::one_block_per_chunk;
    v.pass.destroys_input = traits_int(t, "destroys_input", 0) != 0;
    v.pass.blocks = block_rule_of(t);
    v.pass.launch = launch_submission_pass;
  }
  return {v};
}

}  // namespace

std::span<const reduction::variant> reduction_submission() {
  static const std::vector<reduction::variant> row = build_row();
  return row;
}

int default_reduction_block(const reduction::variant& v) {
  const std::vector<int> blocks = v.swept_blocks();
  if (blocks.empty()) return 0;
  int best = blocks.front();
  for (const int b : blocks)
    if (b <= 256) best = b;
  return best;
}

}  // namespace kc::grading
