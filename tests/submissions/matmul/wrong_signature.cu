// Example submission: kc_matmul with int matrices instead of float ones. The grader forces the
// contract header in, so the definition conflicts with its declaration and the compiler names it.
// Expected: score 0 (verdict: signature_error). Needs no GPU: checked in CI.
#include "kconform_matmul_submission.h"

kc_matmul_traits kc_matmul_submission_traits(void) {
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 2;
  t.configs[0] = {16, 1};
  return t;
}

const char* kc_matmul(const int* a, const int* b, int* c, int m, int n, int k, int block, int tile_width,
                      cudaStream_t stream) {
  return nullptr;
}
