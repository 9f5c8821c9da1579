// kconform reduction submission: start here (docs/grading.md).
//
// Fill in the kernel below (TODO), keep the traits true to what your launcher accepts, and grade it:
//   scripts/grade.sh --family reduction --submission reduction_starter.cu
// As it stands it compiles and launches, but writes nothing: every case fails with
// "never written" (the grader poisons the output before each launch).
#include "kconform_reduction_submission.h"

// TODO: block b sums in[b·blockDim.x .. (b+1)·blockDim.x) (one element per thread, as declared
// below) and thread 0 writes the sum to out[blockIdx.x]. Mind n: the last block is partial.
__global__ void block_sum(const float* in, float* out, size_t n) {
  extern __shared__ float partial[];
  (void)in;
  (void)out;
  (void)n;
  (void)partial;
}

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_PASS;
  t.min_block = 32;
  t.max_block = 1024;
  t.power_of_two_blocks = 1;  // a tree that halves the active threads needs a power of two
  t.block_multiple = 1;
  t.elements_per_thread = 1;
  t.grid_stride = 0;
  t.destroys_input = 0;
  return t;
}

const char* kc_reduction_pass(float* in, float* out, size_t n, int block, int grid, cudaStream_t stream) {
  block_sum<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

// Only for KC_REDUCE_FULL submissions; a KC_REDUCE_PASS submission leaves them like this.
size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) {
  return "this submission is a KC_REDUCE_PASS reduction";
}
