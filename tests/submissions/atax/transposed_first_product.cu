// Example submission: the seed's first-product index alone. Two launches (no race), every bound
// checked, the second product right; but the first product reads A "by columns" as the seed did
// (kernels/polybench/atax/known_bad/fused_as_written.cu, bug 2: A[tid + r*nx], "A*x by columns is
// faster"), so it computes tmp[i] = Σ_j A[j*nx + i]·x[j]: Aᵀ·x when A is square. Right exactly where
// that equals A·x: symmetric square A (PolyBench's init: A[i][j] = i·j/nx) and the degenerate shapes
// (nx = 1 or ny = 1, where A and Aᵀ share one layout); wrong on every Random square and every
// non-square shape (where j*nx + i is not even an element's row-major place). The known-bad row
// AtaxRowPerThreadBothPhases shares the symptom (right only for symmetric A).
// Blocks 256, 128, 32. Expected, per group (default rubric):
//   small_sizes   5 of 10 (2², 3² and the grading-only 32², 256², 1024²: PolyBench
//                 passes, Random fails; 1024² only at PolyBench)                  10 of 20
//   odd_sizes     0 of 12 (non-square: both inputs fail)                          0 of 25
//   large_sizes   3 of 6 (4096² PolyBench passes at each block, Random fails)      7.5 of 15
//   configs       10 of 44 (the squares' PolyBench at blocks 128 and 32)          3.41 of 15
//   edge_inputs   9 of 9 (1×1, 1×1000, 1000×1)                                   5 of 5
//   sanitizer     clean (no access out of bounds, no shared memory)             10 of 10
//   performance   0: wrong at the shape timed (Random 4096²)
// Total 35.91, deterministic (no race, no out-of-bounds access; measured on an H100: 35.91): range
// 30–40 (verdict: wrong_result).
#include "kconform_atax_submission.h"

__global__ void a_times_x_by_columns(const double* A, const double* x, double* tmp, int nx, int ny) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nx) return;
  double sum = 0.0;
  for (int j = 0; j < ny; ++j) sum += A[static_cast<size_t>(j) * nx + i] * x[j];  // the mistake: A[j][i]
  tmp[i] = sum;
}

__global__ void a_transposed_times_tmp(const double* A, const double* tmp, double* y, int nx, int ny) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= ny) return;
  double sum = 0.0;
  for (int i = 0; i < nx; ++i) sum += A[static_cast<size_t>(i) * ny + j] * tmp[i];
  y[j] = sum;
}

kc_atax_traits kc_atax_submission_traits(void) {
  kc_atax_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = 256;
  t.blocks[1] = 128;
  t.blocks[2] = 32;
  return t;
}

const char* kc_atax(const double* a, const double* x, double* tmp, double* y, int nx, int ny, int block,
                    cudaStream_t stream) {
  a_times_x_by_columns<<<(nx + block - 1) / block, block, 0, stream>>>(a, x, tmp, nx, ny);
  a_transposed_times_tmp<<<(ny + block - 1) / block, block, 0, stream>>>(a, tmp, y, nx, ny);
  return nullptr;
}
