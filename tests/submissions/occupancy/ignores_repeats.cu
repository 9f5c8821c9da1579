// Example submission: the vector add with `repeats` ignored (issue 20), on a body made slow on
// purpose. kc_vector_add writes the right values but runs its body once whatever `repeats` says —
// every repeat writes the same value, so no output can show it — and each pass first busy-waits
// 50 µs on the GPU's global timer, standing in for a slow body: about 10x the reference's one pass
// at the timed size. Ignoring repeats is what hid the slow body before the fix.
//
// Expected (verdict: slow). Every vector add case passes (the output is right) and the occupancy
// answers are the runtime's for the kernel launched: small 20, odd 25, large 15, configs 15, edge 5,
// sanitizer 10 = 90. Performance, 10 points: full at ratio <= 1.2, none at >= 3, linear between
// (ratio = submission median / reference median), timed against VectorAdd at n = 65,536 (64 blocks
// of 1024) at 10,000 repeats and at one repeat; the worse ratio is scored.
//   at 10,000 repeats: ~50 µs here against the reference's 10,000 passes (milliseconds: each pass
//     reloads A and B after its store to C) -> ratio ~0.05 or less: full marks, which is what the
//     grader gave before the fix (score 100)
//   at one repeat: ~50 µs against the reference's one pass (a few µs) -> ratio ~10, past 3: 0 points
// Scored: the worse -> 0 points. Total 90; range 88–92. Before the fix this scored 100, outside the
// range: the example tells the fixed grader from the unfixed one. The case also records the note
// "repeats appears ignored" (its ratio at 10,000 repeats is under half its ratio at one).
#include "kconform_occupancy_submission.h"

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void vector_add_once(const float* A, const float* B, float* C, size_t n) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  const unsigned long long start = global_ns();
  while (global_ns() - start < 50000) {
  }
  if ((tid / 32) % 4 == 0)
    C[tid] = A[tid] + B[tid];
  else if ((tid / 32) % 4 == 1)
    C[tid] = A[tid] - B[tid];
  else if ((tid / 32) % 4 == 2)
    C[tid] = A[tid] * B[tid];
  else
    C[tid] = A[tid] / B[tid];
}

kc_occupancy_traits kc_occupancy_submission_traits(void) {
  kc_occupancy_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  return t;
}

const char* kc_vector_add(const float* a, const float* b, float* c, size_t n, int block, int /*repeats*/,
                          cudaStream_t stream) {
  vector_add_once<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream>>>(a, b, c, n);
  return nullptr;
}

const void* kc_vector_add_kernel(void) { return reinterpret_cast<const void*>(vector_add_once); }

const char* kc_occupancy_answer(int block, int* active_blocks_per_sm, int* active_warps_per_sm) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vector_add_once, block, 0) != cudaSuccess)
    return "cudaOccupancyMaxActiveBlocksPerMultiprocessor failed";
  *active_blocks_per_sm = blocks;
  *active_warps_per_sm = blocks * ((block + 31) / 32);
  return nullptr;
}
