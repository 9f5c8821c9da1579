// Example submission: seed 004's covariance kernel (Άσκηση 3) as its report prints it, one fused
// kernel for the three phases with BLOCK_SIZE 16 shared tiles, behind the contract's launcher: the
// suite's known-bad row CovarianceFusedAsWritten (kernels/polybench/covariance/known_bad/
// fused_as_written.cu). Its bugs, all kept:
//   1. no grid-wide barrier between the phases (nothing orders the blocks of one launch);
//   2. the centring loop never runs: Col is not reset after the mean loop;
//   3. m and n mixed up in the tile loads, the tile count and the grid (it computes data·data, not
//      dataᵀ·data), so it reads and writes far out of bounds at non-square sizes;
//   4. the tile loop bound `> m` where `>= m` belongs.
// Inside the kernel the seed's names are kept (its m counts rows, its n columns), so the launcher
// passes (n, m). One change, not a fix: FLOAT_N is the contract's parameter, not the hard-coded
// 3214212.01 (the registry row does the same; the verdict is the same either way).
// Expected (verdict wrong_result, maybe fault beside it): no value case passes, from 1 × 1 on (its
// 16 × 16 threads write symmat up to index 31 of a 1-element symmat: the guard check), so small,
// odd, large and edge score 0 of 20, 25, 15 and 5; one block declared, so configs has no case (0 of
// 15); wrong at the size timed, so performance 0. The sanitizer group: memcheck sees the
// out-of-bounds reads and writes on exact-size buffers (dirty); racecheck and synccheck find no
// shared-memory hazard but may see no case finish if a stray access faults. Score 0 to 6.67 of the
// sanitizer's 10: range 0–10.
#include "kconform_covariance_submission.h"

#define BLOCK_SIZE 16

__global__ void covariance(double* data, double* mean, double* symmat, int m, int n, double float_n) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  unsigned int Col = bx * blockDim.x + tx;
  unsigned int Row = by * blockDim.y + ty;
  __shared__ double data_s1[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ double data_s2[BLOCK_SIZE][BLOCK_SIZE];
  // mean of each column
  while (Col < n) {
    double result = 0;
    for (int i = 0; i < m; i++) result += data[i * n + Col];
    mean[Col] = result / float_n;
    Col += gridDim.x * blockDim.x;
  }
  // centre the data
  while (Col < n) {
    for (int i = 0; i < m; i++) data[i * n + Col] -= mean[Col];
    Col += gridDim.x * blockDim.x;
  }
  // symmat with shared-memory tiles
  double Pvalue = 0.0;
  for (int l = 0; l < ((n + BLOCK_SIZE - 1) / BLOCK_SIZE); l++) {
    data_s1[ty][tx] = data[Row * n + l * BLOCK_SIZE + tx];
    data_s2[ty][tx] = data[Col + (l * BLOCK_SIZE + ty) * m];
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; k++) {
      if ((l * BLOCK_SIZE + k) > m) break;
      Pvalue += data_s1[ty][k] * data_s2[k][tx];
    }
    __syncthreads();
  }
  symmat[Row * n + Col] = Pvalue;
}

kc_covariance_traits kc_covariance_submission_traits(void) {
  kc_covariance_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = BLOCK_SIZE;
  return t;
}

const char* kc_covariance(double* data, double* mean, double* symmat, int m, int n, double float_n, int block,
                          cudaStream_t stream) {
  if (block != BLOCK_SIZE) return "this kernel is compiled for BLOCK_SIZE 16 only";
  const int M = n, N = m;  // the seed's M (rows) and N (columns)
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid((M + BLOCK_SIZE - 1) / BLOCK_SIZE, (N + BLOCK_SIZE - 1) / BLOCK_SIZE);
  covariance<<<dimGrid, dimBlock, 0, stream>>>(data, mean, symmat, M, N, float_n);
  return nullptr;
}
