// Example submission: a correct vector add that never answers the occupancy question: it does not
// define kc_occupancy_answer. Expected: score 0, "does not define kc_occupancy_answer" (verdict:
// signature_error). Needs no GPU: checked in CI.
#include "kconform_occupancy_submission.h"

__global__ void vector_add(const float* A, const float* B, float* C, size_t n, int repeats) {
  const size_t tid = static_cast<size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
  if (tid >= n) return;
  const int op = static_cast<int>((tid / 32) % 4);
  for (int i = 0; i < repeats; i++)
    C[tid] = op == 0 ? A[tid] + B[tid] : op == 1 ? A[tid] - B[tid] : op == 2 ? A[tid] * B[tid] : A[tid] / B[tid];
}

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

const void* kc_vector_add_kernel(void) { return reinterpret_cast<const void*>(vector_add); }
