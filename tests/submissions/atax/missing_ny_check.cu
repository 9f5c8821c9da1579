// Example submission: two correct products, but the second kernel has no `if (j < ny)`: the grid
// rounds ny up to whole blocks, and the threads past ny sum A[i*ny + j] (the next row's elements;
// the last row's run past A's end into its guard) and write y[j] past y's end. The guard after y
// fails the case wherever ny is not a multiple of the block; at such multiples (4096) it is right.
// The seed's kernel lacks the same check on ny (kernels/polybench/atax/known_bad/fused_as_written.cu,
// bug 3: its inner loop runs to BLOCK_SIZE whatever ny is).
// Blocks 256, 128, 32; ny = 4096 is a multiple of all three, 256 and 1024 (grading-only squares) of
// all three, 32 only of block 32; no other swept ny is. Expected, per group (default rubric):
//   small_sizes   4 of 10 (256², 1024², both inputs)                              8 of 20
//   odd_sizes     2 of 12 (17 × 4096, both inputs)                               4.17 of 25
//   large_sizes   6 of 6 (4096²)                                                 15 of 15
//   configs       14 of 44 (17 × 4096, 256², 1024² at blocks 128 and 32; 32² at 32)  4.77 of 15
//   edge_inputs   0 of 9 (ny = 1, 1000)                                          0 of 5
//   sanitizer     memcheck fails (writes past y at 33 × 65); racecheck, synccheck
//                 clean unless the stray writes fault: 0–10 of 10 (measured: 6.67)
//   performance   right at 4096², the reference's scheme at its block: ratio ~1, 8–10 of 10
// Total 39.9–51.9 (measured on an H100: 48.61, the value groups as counted here): range 38–52
// (verdict: wrong_result; a case whose stray reads run far past A can also fault). Before every
// buffer had a canary of its own, the NaN summed from A's guard wrote A's canary -- then the only
// canary -- into y's guard and every value case passed (96.67).
#include "kconform_atax_submission.h"

__global__ void a_times_x(const double* A, const double* x, double* tmp, int nx, int ny) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nx) return;
  const double* row = A + static_cast<size_t>(i) * ny;
  double sum = 0.0;
  for (int j = 0; j < ny; ++j) sum += row[j] * x[j];
  tmp[i] = sum;
}

__global__ void a_transposed_times_tmp(const double* A, const double* tmp, double* y, int nx, int ny) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // the mistake: no `if (j >= ny) return;`
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
  a_times_x<<<(nx + block - 1) / block, block, 0, stream>>>(a, x, tmp, nx, ny);
  a_transposed_times_tmp<<<(ny + block - 1) / block, block, 0, stream>>>(a, tmp, y, nx, ny);
  return nullptr;
}
