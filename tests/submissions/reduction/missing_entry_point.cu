// Example submission: compiles, but never defines kc_reduction_pass, the entry point its traits
// promise. Expected: score 0, "does not define kc_reduction_pass" (verdict: signature_error). Needs
// no GPU: checked in CI.
#include "kconform_reduction_submission.h"

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_PASS;
  t.min_block = 32;
  t.max_block = 1024;
  t.power_of_two_blocks = 1;
  t.block_multiple = 1;
  t.elements_per_thread = 1;
  return t;
}
