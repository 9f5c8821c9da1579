// Reduction (KERNELS.md §1–2): the submission's traits, checked and printed for the grading program (probe.hpp).
#include "grading/contract/kconform_reduction_submission.h"
#include "grading/probe/probe.hpp"

#include <string>

namespace kc::probe {
namespace {

bool is_power_of_two(int x) { return x > 0 && (x & (x - 1)) == 0; }

json::value reduction_traits(void* library) {
  const char* contract = "kconform_reduction_submission.h";
  const auto traits_fn = reinterpret_cast<kc_reduction_traits (*)()>(entry(library, "kc_reduction_submission_traits", contract));
  const kc_reduction_traits t = traits_fn();
  check_abi(t.abi);
  if (t.kind != KC_REDUCE_PASS && t.kind != KC_REDUCE_FULL)
    signature_problem("traits.kind is " + std::to_string(t.kind) + ": use KC_REDUCE_PASS or KC_REDUCE_FULL");
  const bool own_block = t.kind == KC_REDUCE_FULL && t.min_block == 0;
  if (!own_block) {
    if (t.min_block < 1 || t.max_block < t.min_block || t.max_block > 1024)
      signature_problem("traits declare blocks " + std::to_string(t.min_block) + " to " + std::to_string(t.max_block) +
                        ": need 1 <= min_block <= max_block <= 1024" +
                        (t.kind == KC_REDUCE_FULL ? " (or min_block = 0: your code picks its block)" : ""));
    if (t.block_multiple < 1) signature_problem("traits.block_multiple must be >= 1 (1: any block)");
    bool any = false;
    for (int b = t.min_block; b <= t.max_block && !any; ++b)
      any = b % t.block_multiple == 0 && (!t.power_of_two_blocks || is_power_of_two(b));
    if (!any) signature_problem("no block satisfies the traits' block rule: nothing could be graded");
  }
  if (t.kind == KC_REDUCE_PASS) {
    entry(library, "kc_reduction_pass", contract);
    if (t.elements_per_thread < 1) signature_problem("traits.elements_per_thread must be >= 1");
  } else {
    entry(library, "kc_reduction_full", contract);
    entry(library, "kc_reduction_scratch_floats", contract);
  }
  return json::object{{"family", "reduction"},
                          {"abi", t.abi},
                          {"kind", t.kind == KC_REDUCE_PASS ? "pass" : "full"},
                          {"min_block", t.min_block},
                          {"max_block", t.max_block},
                          {"power_of_two_blocks", t.power_of_two_blocks != 0},
                          {"block_multiple", t.block_multiple},
                          {"elements_per_thread", t.elements_per_thread},
                          {"grid_stride", t.grid_stride != 0},
                          {"destroys_input", t.destroys_input != 0}};
}

const family_registration registered("reduction", reduction_traits);

}  // namespace
}  // namespace kc::probe
