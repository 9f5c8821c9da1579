// KNOWN-BAD. Bugs that gave right values in every case of the suite before issue 6, each caught by
// a check that issue 6 added:
//   CublasTf32              cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH: inputs rounded to TF32 (11
//                           significant bits). Exact on integers in [-8, 8]; caught by WideInteger
//                           inputs (odd magnitudes above 2^11) and by the real-input bound.
//   CublasIgnoresStream     the right call, but on the default stream instead of the caller's:
//                           caught by launching behind a delayed input copy on a non-blocking stream.
//   WrongLeadingDimension   one output per thread, A indexed with n as its leading dimension
//                           (a[row·n + j]): right whenever n = k, so every square shape passes;
//                           caught by running known-bad rows over the rectangular shapes too.
//   DebugStoreInA           one output per thread plus a leftover debug store of C[0][0] into A[0]:
//                           C is usually right (A[0] is read early), but A is changed; caught by the
//                           A-and-B-unchanged check.
//   TiledReadsPastRowEnd    the tiled kernel loads a[row·k + col] before checking col < k and
//                           discards the value: past A's end on the last row. A guard zone absorbs
//                           it; caught by memcheck on exact-size buffers.
#include "kernels/matmul/kernels.hpp"

#include "fixtures/cuda_check.hpp"

namespace kc::matmul::detail {
namespace {

__global__ void a_leading_dimension_n(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                                      int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += a[static_cast<std::size_t>(row) * n + j] * b[static_cast<std::size_t>(j) * n + col];
  c[static_cast<std::size_t>(row) * n + col] = sum;
}

__global__ void debug_store_in_a(const float* a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += a[static_cast<std::size_t>(row) * k + j] * b[static_cast<std::size_t>(j) * n + col];
  c[static_cast<std::size_t>(row) * n + col] = sum;
  if (row == 0 && col == 0) const_cast<float*>(a)[0] = sum;  // the leftover debug store
}

constexpr int tile = 16;

__global__ void tiled_reads_past_row_end(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                                         int n, int k) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;
  float sum = 0.0f;
  for (int t = 0; t < (k + tile - 1) / tile; ++t) {
    const int a_col = t * tile + tx;
    const int b_row = t * tile + ty;
    const float loaded = row < m ? a[static_cast<std::size_t>(row) * k + a_col] : 0.0f;  // col not checked yet
    a_tile[ty][tx] = a_col < k ? loaded : 0.0f;
    b_tile[ty][tx] = b_row < k && col < n ? b[static_cast<std::size_t>(b_row) * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < tile; ++j) sum += a_tile[ty][j] * b_tile[j][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<std::size_t>(row) * n + col] = sum;
}

launch_status sgemm_row_major(const float* a, const float* b, float* c, const shape& s, cublasHandle_t handle) {
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b, s.n, a, s.k, &zero, c, s.n);
  if (st != CUBLAS_STATUS_SUCCESS) return launch_status::failed(cudaErrorUnknown, std::string("cublasSgemm: ") + cublas_status_name(st));
  return launch_status::after_launch("cublasSgemm");
}

}  // namespace

launch_status launch_cublas_tf32(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                 const launch_context& context) {
  if (context.cublas == nullptr) return launch_status::refused("cuBLAS needs a handle");
  cublasSetStream(context.cublas, context.stream);
  cublasSetMathMode(context.cublas, CUBLAS_TF32_TENSOR_OP_MATH);
  const launch_status status = sgemm_row_major(a, b, c, s, context.cublas);
  cublasSetMathMode(context.cublas, CUBLAS_DEFAULT_MATH);  // the handle is shared: leave it as found
  return status;
}

launch_status launch_cublas_ignores_stream(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                           const launch_context& context) {
  if (context.cublas == nullptr) return launch_status::refused("cuBLAS needs a handle");
  cublasSetStream(context.cublas, nullptr);  // the bug: the caller's stream is not used
  return sgemm_row_major(a, b, c, s, context.cublas);
}

launch_status launch_wrong_leading_dimension(const float* a, const float* b, float* c, const shape& s,
                                             const matmul_config& config, const launch_context& context) {
  const grid_2d g = one_output_per_thread_grid(s, config);
  a_leading_dimension_n<<<dim3(g.x, g.y), dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n, s.k);
  return launch_status::after_launch("A with leading dimension n");
}

launch_status launch_debug_store_in_a(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                      const launch_context& context) {
  const grid_2d g = one_output_per_thread_grid(s, config);
  debug_store_in_a<<<dim3(g.x, g.y), dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.m, s.n, s.k);
  return launch_status::after_launch("debug store into A");
}

launch_status launch_tiled_reads_past_row_end(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                              const launch_context& context) {
  const dim3 grid((s.n + tile - 1) / tile, (s.m + tile - 1) / tile);
  tiled_reads_past_row_end<<<grid, dim3(tile, tile), 0, context.stream>>>(a, b, c, s.m, s.n, s.k);
  return launch_status::after_launch("tiled, A read before its column check");
}

}  // namespace kc::matmul::detail
