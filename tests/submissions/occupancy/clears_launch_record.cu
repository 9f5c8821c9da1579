// Example submission: answers_for_another_kernel.cu, made to pass the launch check by reaching into
// the grader's guard (a second reader's finding). The guard is linked into the submission's own
// library, so its export kc_grader_launched_kernels is callable from the student's file: after
// launching the real vector add, kc_vector_add calls it to clear the record, then makes a decoy launch
// of the kernel it names (grid 0: refused by the runtime, but recorded), so the record shows only the
// named kernel. Declaring the export hidden instead would have hidden it from the grader, and
// __real_cudaLaunchKernel would have launched past the guard unrecorded: the same class.
//
// Expected (verdict: suite_symbols, score 0). grade.sh reads what the student's object references on
// its own (nm of submission.o): any kc_grader_*, __real_* or __wrap_* name is the grader's, and a
// submission that names one is zeroed like one that names the suite's kc:: symbols.
#include "kconform_occupancy_submission.h"

extern "C" size_t kc_grader_launched_kernels(const void** kernels, size_t capacity, unsigned long long* launched, int* more);

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

__global__ void empty_kernel() {}

kc_occupancy_traits kc_occupancy_submission_traits(void) {
  kc_occupancy_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  return t;
}

const char* kc_vector_add(const float* a, const float* b, float* c, size_t n, int block, int repeats,
                          cudaStream_t stream) {
  vector_add<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream>>>(a, b, c, n, repeats);
  (void)kc_grader_launched_kernels(nullptr, 0, nullptr, nullptr);  // forget the real launch
  empty_kernel<<<0, 1, 0, stream>>>();                              // recorded, refused by the runtime
  (void)cudaGetLastError();
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
