// Example submission: a correct vector add (seed 003's vector_add, guarded, grid = ceil(n / block)),
// but kc_vector_add_kernel() names another kernel — an empty one, which kc_vector_add never launches —
// and kc_occupancy_answer answers for that one, with the CUDA runtime's own calculator. Before issue
// 20 the grader judged the answer for whatever kernel the submission named, so this scored 100: the
// occupancy question answered for a kernel that does not run.
//
// Expected (verdict: wrong_result). The grader runs kc_vector_add at each answer's block and sees, in
// the submission's launch record (grading/submission_guard.cpp), that it launched vector_add, not the
// kernel named: every occupancy answer fails on that identity, whatever its numbers (so it does not
// matter that an empty kernel's occupancy may equal vector_add's at some blocks). Per group:
//   small 20, odd 25, large 15, configs 15: every vector add case passes (the output is right)
//   edge    (7 occupancy answers, blocks 32 ... 1024 and 96): 0/7 -> 0 of 5
//   sanitizer: clean (10); performance: the suite's own body, ratio ~1 at 10,000 repeats and at one (10)
// Total 95; range 93–97.
#include "kconform_occupancy_submission.h"

__global__ void vector_add(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  for (int i = 0; i < repeats; i++) {
    if ((tid / 32) % 4 == 0)
      C[tid] = A[tid] + B[tid];
    else if ((tid / 32) % 4 == 1)
      C[tid] = A[tid] - B[tid];
    else if ((tid / 32) % 4 == 2)
      C[tid] = A[tid] * B[tid];
    else
      C[tid] = A[tid] / B[tid];
  }
}

// Never launched: named for the occupancy question instead of vector_add.
__global__ void empty_kernel() {}

kc_occupancy_traits kc_occupancy_submission_traits(void) {
  kc_occupancy_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  return t;
}

const char* kc_vector_add(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                          cudaStream_t stream) {
  vector_add<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream>>>(a, b, c, n, repeats);
  return nullptr;
}

const void* kc_vector_add_kernel(void) { return reinterpret_cast<const void*>(empty_kernel); }

const char* kc_occupancy_answer(int block, int* active_blocks_per_sm, int* active_warps_per_sm) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, empty_kernel, block, 0) != cudaSuccess)
    return "cudaOccupancyMaxActiveBlocksPerMultiprocessor failed";
  *active_blocks_per_sm = blocks;
  *active_warps_per_sm = blocks * ((block + 31) / 32);
  return nullptr;
}
