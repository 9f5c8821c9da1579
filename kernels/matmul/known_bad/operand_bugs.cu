// KNOWN-BAD. Operand-order and layout bugs:
//   CublasAsWritten   the report's call, cublasSgemm(h, N, N, n, n, n, 1, A, n, B, n, 0, C, n), on
//                     row-major data: cuBLAS reads the buffers as column-major transposes, so this
//                     computes B·A. Right only for inputs where A·B = B·A (the report's constants).
//   ReadsBTransposed  a one-output-per-thread kernel that indexes B[col][j] instead of B[j][col]:
//                     A·Bᵀ, right only for symmetric B.
#include "kernels/matmul/kernels.hpp"

#include "fixtures/cuda_check.hpp"

namespace kc::matmul::detail {
namespace {

__global__ void reads_b_transposed(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += a[static_cast<std::size_t>(row) * n + j] * b[static_cast<std::size_t>(col) * n + j];
  c[static_cast<std::size_t>(row) * n + col] = sum;
}

}  // namespace

launch_status launch_cublas_as_written(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                       const launch_context& context) {
  if (context.cublas == nullptr) return launch_status::refused("cuBLAS needs a handle");
  const float alpha = 1.0f, beta = 0.0f;
  const int n = s.n;
  cublasSetStream(context.cublas, context.stream);
  const cublasStatus_t st = cublasSgemm(context.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n);
  if (st != CUBLAS_STATUS_SUCCESS) return launch_status::failed(cudaErrorUnknown, std::string("cublasSgemm: ") + cublas_status_name(st));
  return launch_status::after_launch("cublasSgemm as written");
}

launch_status launch_reads_b_transposed(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                        const launch_context& context) {
  const int grid = (s.n + config.block - 1) / config.block;
  reads_b_transposed<<<dim3(grid, grid), dim3(config.block, config.block), 0, context.stream>>>(a, b, c, s.n);
  return launch_status::after_launch("reads B transposed");
}

}  // namespace kc::matmul::detail
