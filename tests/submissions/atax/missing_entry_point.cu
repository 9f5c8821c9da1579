// Example submission: the lab's ATAX kernel and traits, but no kc_atax, the entry point the
// contract asks for (the student left the launch in their main()). The probe names it.
// Expected: score 0, "does not define kc_atax" (verdict: signature_error). Needs no GPU: checked in CI.
#include "kconform_atax_submission.h"

__global__ void trans_norm_vector(const double* A, const double* x, double* tmp, double* y, int nx, int ny) {
  (void)A;
  (void)x;
  (void)tmp;
  (void)y;
  (void)nx;
  (void)ny;
}

kc_atax_traits kc_atax_submission_traits(void) {
  kc_atax_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  return t;
}
