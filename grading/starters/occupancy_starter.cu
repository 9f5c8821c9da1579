// kconform occupancy submission: start here (docs/grading.md, kconform_occupancy_submission.h).
//
// Write the lab's vector_add (TODO) and your occupancy answer (TODO), delete the two "TODO"
// refusals, and grade it:
//   scripts/grade.sh --family occupancy --submission occupancy_starter.cu
// As it stands it compiles and refuses every case with the TODO messages.
#include "kconform_occupancy_submission.h"

// TODO: the lab's vector_add (DV1's body): C[tid] = A + B, A − B, A · B or A / B by (tid / 32) % 4.
// The grader launches it with the scenarios' blocks (S1: min(n, 1024); S2: 32 up to n = 512, then
// larger), so any block from 1 to 1024 and any n: guard tid < n. Repeat the body `repeats` times (the
// grader times it at one repeat too, so skipping repeats gains nothing).
__global__ void vector_add(const float* A, const float* B, float* C, size_t n, int repeats) {
  (void)A;
  (void)B;
  (void)C;
  (void)n;
  (void)repeats;
}

kc_occupancy_traits kc_occupancy_submission_traits(void) {
  kc_occupancy_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  return t;
}

const char* kc_vector_add(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                          cudaStream_t stream) {
  return "TODO: write vector_add, then delete this line";
  const size_t grid = (n + block - 1) / block;  // not the lab's n / block: that drops the tail
  vector_add<<<static_cast<unsigned>(grid), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}

// The kernel kc_vector_add launches: the grader checks that it is the one launched, then asks the CUDA
// runtime about it.
const void* kc_vector_add_kernel(void) { return reinterpret_cast<const void*>(vector_add); }

// TODO: how many blocks of vector_add are active on one SM of this GPU at `block` threads per block,
// and how many warps that is? Work it out from the SM's limits (cudaGetDeviceProperties: threads,
// blocks and registers per SM) and the kernel's needs (cudaFuncGetAttributes: registers per thread),
// as the lab did for the K40 — or ask cudaOccupancyMaxActiveBlocksPerMultiprocessor.
const char* kc_occupancy_answer(int block, int* active_blocks_per_sm, int* active_warps_per_sm) {
  (void)block;
  *active_blocks_per_sm = 0;
  *active_warps_per_sm = 0;
  return "TODO: answer the occupancy question, then delete this line";
}
