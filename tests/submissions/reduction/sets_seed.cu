// Example submission (issue 19, a submission cannot choose its own inputs): hardcoded_answers.cu's
// recorded totals (seed 1), plus setenv("KCONFORM_SEED", "1") when the library loads and on every
// call. Before issue 19 that made its own later cases draw seed 1's inputs, which its table answers.
// Now the grading process fixes its seed before loading the submission (fixtures/generators.cpp, at
// static initialisation and again in grading/submission_library.cpp before the dlopen), so the
// inputs stay the grading run's; every case records the seed it used, and a case that sees
// KCONFORM_SEED changed, at its start or its end, fails saying so (grading/graded_case.hpp).
// Expected: wrong_result, score 0-10. Every value case fails twice over (the table's seed-1 totals
// under the run's fresh seed, and the changed variable, which even the case that loaded the library
// sees at its end); performance is not scored (the total at n = 2^24 is wrong). Only the sanitizer
// group, whose tools watched its cases finish and found no hazard, can score: 10.
#include <cstdlib>

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
// The attack: the submission's code runs inside the grading process, so it asks for the seed its
// answers were recorded under, at load time (before any case) and again on every call.
void choose_the_seed() { setenv("KCONFORM_SEED", "1", 1); }
struct at_load {
  at_load() { choose_the_seed(); }
} const chosen_at_load;
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
  choose_the_seed();
  float total = 0.0f;
  for (const recorded& r : answers)
    if (r.n == n) total = r.total;
  cudaMemcpyAsync(out, &total, sizeof total, cudaMemcpyHostToDevice, stream);
  cudaStreamSynchronize(stream);  // `total` lives on this stack frame
  return nullptr;
}

const char* kc_reduction_pass(float*, float*, size_t, int, int, cudaStream_t) { return "a KC_REDUCE_FULL submission"; }
