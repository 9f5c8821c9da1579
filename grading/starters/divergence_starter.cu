// kconform divergence submission: start here (docs/grading.md, kconform_divergence_submission.h).
//
// Write the two kernels of the lab (TODO), delete the two "TODO" refusals, list in the traits the
// blocks to grade at (the grader adds 96 and 97: C must not depend on the block), and grade it:
//   scripts/grade.sh --family divergence --submission divergence_starter.cu
// As it stands it compiles and refuses every case with the TODO message.
#include "kconform_divergence_submission.h"

// TODO: C[tid] = A + B, A − B, A · B or A / B by (tid / 32) % 4 (0, 1, 2, 3): one branch per warp.
// One thread per element; n need not be a multiple of the block, so guard tid < n. Repeat the body
// `repeats` times (the lab's loop of 100). Divide with `/` (IEEE), not __fdividef.
__global__ void warp_no_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  (void)A;
  (void)B;
  (void)C;
  (void)n;
  (void)repeats;
}

// TODO: the same four operations by tid % 4: every warp runs the four branches in turn.
__global__ void warp_divergence(const float* A, const float* B, float* C, size_t n, int repeats) {
  (void)A;
  (void)B;
  (void)C;
  (void)n;
  (void)repeats;
}

kc_divergence_traits kc_divergence_submission_traits(void) {
  kc_divergence_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 1024;  // list your main block first: it is the one timed
  t.blocks[1] = 256;
  t.blocks[2] = 96;
  t.blocks[3] = 32;
  return t;
}

const char* kc_warp_no_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                                  cudaStream_t stream) {
  return "TODO: write warp_no_divergence, then delete this line";
  const size_t grid = (n + block - 1) / block;  // every element gets a thread
  warp_no_divergence<<<static_cast<unsigned>(grid), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}

const char* kc_warp_divergence(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                               cudaStream_t stream) {
  return "TODO: write warp_divergence, then delete this line";
  const size_t grid = (n + block - 1) / block;
  warp_divergence<<<static_cast<unsigned>(grid), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}
