// Stands in for tests/submissions/matmul/prints_in_traits.cu in probe_cpu_tests: a matmul submission
// that prints to stdout when it loads and while its traits are read, as debugging output does. Host
// code only (the probe never launches anything), so the test needs no GPU.
#include "grading/contract/kconform_matmul_submission.h"

#include <cstdio>

namespace {
struct says_hello {
  says_hello() {
    std::printf("hello from a static constructor\n");
    std::fflush(stdout);
  }
} const at_load;
}  // namespace

kc_matmul_traits kc_matmul_submission_traits(void) {
  std::printf("debug: traits {\"family\": \"matmul\"}\n");
  std::fflush(stdout);
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 2;
  t.configs[0] = {16, 16};
  return t;
}

const char* kc_matmul(const float*, const float*, float*, int, int, int, int, int, cudaStream_t) {
  return "this stand-in launches nothing";
}
