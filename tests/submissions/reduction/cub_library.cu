// Example submission: a correct n -> 1 reduction that calls cub::DeviceReduce::Sum. Under the
// default rubric (hand_written: true) library code scores 0, flagged with what was found (CUB code
// compiled into the submission). Expected: every case passes, score 0 (verdict: library).
#include "kconform_reduction_submission.h"

#include <cub/device/device_reduce.cuh>

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_FULL;
  t.min_block = 0;  // CUB picks its own
  return t;
}

size_t kc_reduction_scratch_floats(size_t n, int) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), n);
  return (bytes + sizeof(float) - 1) / sizeof(float);
}

const char* kc_reduction_full(float* in, float* out, size_t n, int, float* scratch, cudaStream_t stream) {
  size_t bytes = kc_reduction_scratch_floats(n, 0) * sizeof(float);
  if (cub::DeviceReduce::Sum(scratch, bytes, in, out, n, stream) != cudaSuccess) return "cub::DeviceReduce::Sum failed";
  return nullptr;
}

const char* kc_reduction_pass(float*, float*, size_t, int, int, cudaStream_t) { return "a KC_REDUCE_FULL submission"; }
