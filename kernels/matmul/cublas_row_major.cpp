// MMc: cuBLAS SGEMM on row-major data. cuBLAS is column-major: a row-major m×n matrix is, to it, the
// column-major n×m transpose. So C = A·B (row-major) is computed as Cᵀ = Bᵀ·Aᵀ (column-major):
// pass B first, with the dimensions n, m, k and leading dimensions n, k, n.
#include "kernels/matmul/kernels.hpp"

#include "fixtures/cuda_check.hpp"

namespace kc::matmul::detail {

launch_status validate_cublas(const shape& s, const matmul_config&, const device_limits&) {
  if (s.m < 1 || s.n < 1 || s.k < 1) return launch_status::refused("shape " + s.describe() + ": every dimension must be >= 1");
  return launch_status::ok();
}

launch_status launch_cublas_row_major(const float* a, const float* b, float* c, const shape& s, const matmul_config&,
                                      const launch_context& context) {
  if (context.cublas == nullptr) return launch_status::refused("cuBLAS needs a handle: create one per fixture, not per call");
  const float one = 1.0f, zero = 0.0f;
  if (const cublasStatus_t st = cublasSetStream(context.cublas, context.stream); st != CUBLAS_STATUS_SUCCESS)
    return launch_status::failed(cudaErrorUnknown, std::string("cublasSetStream: ") + cublas_status_name(st));
  const cublasStatus_t st = cublasSgemm(context.cublas, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b, s.n, a, s.k, &zero,
                                        c, s.n);
  if (st != CUBLAS_STATUS_SUCCESS) return launch_status::failed(cudaErrorUnknown, std::string("cublasSgemm: ") + cublas_status_name(st));
  return launch_status::after_launch("cublasSgemm");
}

}  // namespace kc::matmul::detail
