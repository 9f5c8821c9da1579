// AtaxFusedAsWritten: seed 004's trans_norm_vector (Άσκηση 2) as written — one fused kernel,
// BLOCK_SIZE compiled in (the seed's 256; instantiated here for every block the suite sweeps, the
// code otherwise unchanged), grid ceil(nx / BLOCK_SIZE), launched with block = BLOCK_SIZE. Its bugs:
//   1. cross-block race on tmp: the second loop reads tmp[m·BLOCK_SIZE + t] for every chunk m,
//      written by block m, with no grid-wide barrier (__syncthreads() orders one block only). A
//      read before the owning block has written gets whatever tmp held (the suite poisons it: NaN).
//   2. both products index A[tid + (e + BLOCK_SIZE·m)·nx], i.e. A[r][tid] with row stride nx: the
//      first product is Aᵀ·x, not A·x (equal only when A is symmetric, as PolyBench's square init
//      A[i][j] = i·j/nx is); for nx != ny the stride is not even A's.
//   3. the inner loop runs e to BLOCK_SIZE without checking ny: rows r >= ny are read (past the end
//      of A on the last chunk), their product with x_s[e] = 0 kept — 0, unless the value read is a
//      NaN or an infinity.
//   4. threads tid >= nx read A too (and A[tid + r·nx] for tid in [ny, nx) lies outside the matrix);
//      y[tid] is written for tid < nx although y has ny entries (past its end when nx > ny), and the
//      second loop reads tmp[...] up to ny although tmp has nx entries (past its end when ny > nx).
#include "kernels/polybench/atax/launchers.hpp"

namespace kc::polybench::atax::detail {
namespace {

template <int BLOCK_SIZE>
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
      // To A*x ginetai kata stiles-pio grigoro  ("A*x is done by columns - faster": the seed's comment)
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

template <int BLOCK_SIZE>
launch_status launch_with(const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                          cudaStream_t stream) {
  // The seed's launch: dim3 dimBlock(BLOCK_SIZE); dim3 dimGrid((NX + BLOCK_SIZE - 1) / BLOCK_SIZE).
  const dim3 dimBlock(BLOCK_SIZE);
  const dim3 dimGrid((s.nx + BLOCK_SIZE - 1) / BLOCK_SIZE);
  // The seed's signature takes non-const pointers; the kernel writes neither A nor x.
  trans_norm_vector<BLOCK_SIZE><<<dimGrid, dimBlock, 0, stream>>>(const_cast<double*>(a), const_cast<double*>(x), tmp, y,
                                                                  s.nx, s.ny);
  return launch_status::after_launch("trans_norm_vector (seed 004, as written)");
}

}  // namespace

std::string fused_as_written_constraint(const atax_shape& s, const atax_config& config, const device_limits&) {
  switch (config.block) {
    case 32: case 96: case 128: case 256: case 1024: break;
    default:
      return "the seed's kernel has BLOCK_SIZE compiled in and must be launched with block = BLOCK_SIZE: it is built "
             "for 32, 96, 128, 256 (the seed's) and 1024, not " + std::to_string(config.block);
  }
  // The seed's int index (e + BLOCK_SIZE·m)·nx reaches (chunks·BLOCK_SIZE − 1)·nx: it must fit an int.
  const long long rows_read = static_cast<long long>(blocks_for(s.ny, config.block)) * config.block;
  if ((rows_read - 1) * static_cast<long long>(s.nx) > 2147483647LL)
    return "shape " + s.describe() + ": the seed's int index (e + BLOCK_SIZE*m)*nx reaches " +
           std::to_string((rows_read - 1) * static_cast<long long>(s.nx)) + ", past 2^31 - 1 (signed overflow)";
  return {};
}

launch_status launch_fused_as_written(const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                                      const atax_config& config, const launch_context& context) {
  switch (config.block) {
    case 32: return launch_with<32>(a, x, tmp, y, s, context.stream);
    case 96: return launch_with<96>(a, x, tmp, y, s, context.stream);
    case 128: return launch_with<128>(a, x, tmp, y, s, context.stream);
    case 256: return launch_with<256>(a, x, tmp, y, s, context.stream);
    case 1024: return launch_with<1024>(a, x, tmp, y, s, context.stream);
    default: return launch_status::refused(fused_as_written_constraint(s, config, device_limits{}));
  }
}

}  // namespace kc::polybench::atax::detail
