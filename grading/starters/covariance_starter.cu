// kconform covariance submission: start here (docs/grading.md; the contract is
// kconform_covariance_submission.h).
//
// Fill in the three kernels below (TODO), set `written` to true, keep the traits true to what your
// launcher accepts, and grade it:
//   scripts/grade.sh --family covariance --submission covariance_starter.cu
// As it stands it compiles and refuses every call, saying the kernels are not written yet: every case
// fails with that message.
//
// data is n rows (observations) × m columns (variables), row-major; mean has m entries; symmat is
// m × m. The seed's fused kernel cannot work: no barrier orders the blocks of one launch, so the
// three phases are three kernels here (a kernel boundary is a grid-wide barrier).
#include "kconform_covariance_submission.h"

#define BLOCK_SIZE 16

// TODO: mean[j] = (data[0][j] + ... + data[n-1][j]) / float_n, one thread per column j < m.
__global__ void column_means(const double* data, double* mean, int m, int n, double float_n) {
  (void)data;
  (void)mean;
  (void)m;
  (void)n;
  (void)float_n;
}

// TODO: data[i][j] -= mean[j] for every i < n, j < m (x along columns, y along rows).
__global__ void centre(double* data, const double* mean, int m, int n) {
  (void)data;
  (void)mean;
  (void)m;
  (void)n;
}

// TODO: symmat[j1][j2] = sum over i of data[i][j1] · data[i][j2], both triangles, with
// BLOCK_SIZE × BLOCK_SIZE shared-memory tiles (__shared__ double tile[BLOCK_SIZE][BLOCK_SIZE], two of
// them). Mind the edges: n and m need not be multiples of BLOCK_SIZE (1 × 1000, 1000 × 1 and
// 97 × 101 are graded), and a tile loop runs while its row is < n.
__global__ void product(const double* data, double* symmat, int m, int n) {
  (void)data;
  (void)symmat;
  (void)m;
  (void)n;
}

kc_covariance_traits kc_covariance_submission_traits(void) {
  kc_covariance_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = BLOCK_SIZE;  // list your main BLOCK_SIZE first: it is the one timed; add others you support
  return t;
}

static const bool written = false;  // TODO: true once the kernels above are written

// The contract's m counts columns and n rows (the seed's kernel names them the other way round).
const char* kc_covariance(double* data, double* mean, double* symmat, int m, int n, double float_n, int block,
                          cudaStream_t stream) {
  if (!written) return "the starter's kernels are not written yet: fill in the TODOs, then set written = true";
  if (block != BLOCK_SIZE) return "this file is compiled for BLOCK_SIZE 16 only";
  column_means<<<(m + 255) / 256, 256, 0, stream>>>(data, mean, m, n, float_n);
  centre<<<dim3((m + 31) / 32, (n + 7) / 8), dim3(32, 8), 0, stream>>>(data, mean, m, n);
  const dim3 tiles((m + BLOCK_SIZE - 1) / BLOCK_SIZE, (m + BLOCK_SIZE - 1) / BLOCK_SIZE);
  product<<<tiles, dim3(BLOCK_SIZE, BLOCK_SIZE), 0, stream>>>(data, symmat, m, n);
  return nullptr;
}
