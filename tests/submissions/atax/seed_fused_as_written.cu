// Example submission: seed 004's ATAX kernel (Άσκηση 2) as written, with its launch (BLOCK_SIZE 256,
// grid ceil(NX / BLOCK_SIZE)) inside kc_atax; the only glue is the const_cast (the seed's kernel
// takes double*). The suite's twin is the known-bad row AtaxFusedAsWritten
// (kernels/polybench/atax/known_bad/fused_as_written.cu). Its bugs:
//   1. one fused kernel: phase 2 reads tmp chunks that other blocks write, with no grid-wide barrier
//      (a cross-block race; the grader's tmp is poisoned, so an early read is a NaN in y);
//   2. both products index A[tid + (e + BLOCK_SIZE*m)*nx]: Aᵀ·x for the first (right only for
//      symmetric A) and not A's stride at all when nx != ny;
//   3. the inner loop runs e to BLOCK_SIZE without checking ny, and threads tid >= nx read A too:
//      reads past A's end (the guard's NaN canary, or beyond it), y written up to nx.
// One block declared (BLOCK_SIZE is compiled in): no configs cases, 27 cases in all.
// Expected, per group (default rubric):
//   small_sizes                   0–2/10: 2², 3², 32² read A's guard canary (NaN · 0 = NaN in y);
//                                 the grading-only 256² and 1024² (multiples of 256: every read in
//                                 bounds) fail on Random (transposed index) and pass on PolyBench's
//                                 symmetric init while the race stays latent (measured: 2 of 10)
//   odd_sizes (non-square)       0/12: the same reads past A; at 17 × 4096 y[17..] is never written
//   edge_inputs (nx or ny = 1)    0/3: reads past A; at 1000 × 1 y is written past its end
//   large_sizes (4096²)          0–1/2: Random fails (transposed index); PolyBench (symmetric) passes
//                                 while the race stays latent (all 16 blocks resident), else NaN
//   configs                       0: one block declared
//   sanitizer                     memcheck fails (reads past A at 33 × 65); racecheck and synccheck
//                                 clean (the race is through global memory) unless the reads fault:
//                                 0–6.67 of 10
//   performance                   0: wrong at the shape timed (Random 4096²)
// Total 0–4 + 0–7.5 + 0–6.67 = 0–18.2 (measured on an H100: 10.67): range 0–19 (verdict: wrong_result, besides sanitizer and
// perhaps fault where a read far past A leaves mapped memory, e.g. at 4096 × 17).
#include "kconform_atax_submission.h"

#define BLOCK_SIZE 256

__global__ void trans_norm_vector(double* A, double* x, double* tmp, double* y, int nx, int ny) {
  unsigned int tid = threadIdx.x + blockIdx.x * blockDim.x;
  __shared__ double x_s[BLOCK_SIZE];
  __shared__ double tmp_s[BLOCK_SIZE];
  double sum = 0.0;
  double res = 0.0;
  for (int m = 0; m < ((ny + BLOCK_SIZE - 1) / BLOCK_SIZE); m++) {
    if ((m * BLOCK_SIZE + threadIdx.x) < ny) x_s[threadIdx.x] = x[threadIdx.x + m * BLOCK_SIZE];
    else x_s[threadIdx.x] = 0.f;
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; e++) {
      // To A*x ginetai kata stiles-pio grigoro
      sum += A[tid + (e + BLOCK_SIZE * m) * nx] * x_s[e];
    }
    __syncthreads();
  }
  if (tid < nx) tmp[tid] = sum;
  for (int m = 0; m < ((ny + BLOCK_SIZE - 1) / BLOCK_SIZE); m++) {
    if ((m * BLOCK_SIZE + threadIdx.x) < ny) tmp_s[threadIdx.x] = tmp[threadIdx.x + m * BLOCK_SIZE];
    else tmp_s[threadIdx.x] = 0.f;
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; e++) {
      res += A[tid + (e + BLOCK_SIZE * m) * nx] * tmp_s[e];
    }
    __syncthreads();
  }
  if (tid < nx) y[tid] = res;
}

kc_atax_traits kc_atax_submission_traits(void) {
  kc_atax_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.blocks[0] = BLOCK_SIZE;
  return t;
}

const char* kc_atax(const double* a, const double* x, double* tmp, double* y, int nx, int ny, int block,
                    cudaStream_t stream) {
  if (block != BLOCK_SIZE) return "BLOCK_SIZE is 256";
  dim3 dimBlock(BLOCK_SIZE);
  dim3 dimGrid((nx + BLOCK_SIZE - 1) / BLOCK_SIZE);
  trans_norm_vector<<<dimGrid, dimBlock, 0, stream>>>(const_cast<double*>(a), const_cast<double*>(x), tmp, y, nx, ny);
  return nullptr;
}
