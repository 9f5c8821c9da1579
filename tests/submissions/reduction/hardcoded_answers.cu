// Example submission: computes nothing; writes totals it recorded from one grading run (seed 1,
// the integer inputs of the small sizes). With the seed it recorded (--seed 1) those cases pass;
// with a fresh seed, which every grading run draws unless told otherwise, they fail.
// Expected: a near-zero score (verdict: wrong_result), and more under --seed 1.
#include "kconform_reduction_submission.h"

namespace {
struct recorded {
  size_t n;
  float total;
};
// Seed 1, integer input, from the grader's own report.
constexpr recorded answers[] = {{1, -6.0f},    {2, -1.0f},    {31, 30.0f},    {32, -19.0f},    {33, -40.0f},
                                {63, 8.0f},    {64, 35.0f},   {65, 33.0f},    {127, 49.0f},    {1000, 154.0f},
                                {1023, 228.0f}, {1024, -284.0f}, {1025, 95.0f}, {4097, 88.0f}};
}  // namespace

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_FULL;
  t.min_block = 0;  // "picks its own"
  return t;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }

const char* kc_reduction_full(float*, float* out, size_t n, int, float*, cudaStream_t stream) {
  float total = 0.0f;
  for (const recorded& r : answers)
    if (r.n == n) total = r.total;
  cudaMemcpyAsync(out, &total, sizeof total, cudaMemcpyHostToDevice, stream);
  cudaStreamSynchronize(stream);  // `total` lives on this stack frame
  return nullptr;
}

const char* kc_reduction_pass(float*, float*, size_t, int, int, cudaStream_t) { return "a KC_REDUCE_FULL submission"; }
