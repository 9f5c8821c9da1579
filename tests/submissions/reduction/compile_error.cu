// Example submission: does not compile (a missing semicolon). Expected: score 0, the compiler's
// message in the report (verdict: compile_error). Needs no GPU: checked in CI.
#include "kconform_reduction_submission.h"

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {}
  t.abi = KC_SUBMISSION_ABI;
  return t;
}
