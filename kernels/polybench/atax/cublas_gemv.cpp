// AtaxCublas: cuBLAS DGEMV twice, the library peer. cuBLAS is column-major: the row-major nx × ny A
// is, to it, the column-major ny × nx matrix Aᵀ with leading dimension ny. So
//   tmp = A·x   = (Aᵀ)ᵀ·x  : cublasDgemv(op T, m = ny, n = nx, lda = ny, x of ny, tmp of nx)
//   y   = Aᵀ·tmp          : cublasDgemv(op N, m = ny, n = nx, lda = ny, tmp of nx, y of ny)
// Both on the caller's stream, in that order (stream order is the barrier between them). beta = 0,
// so neither call reads its output before writing it.
#include "kernels/polybench/atax/launchers.hpp"

#include "fixtures/cuda_check.hpp"

namespace kc::polybench::atax::detail {
namespace {

launch_status cublas_failed(const char* call, cublasStatus_t status) {
  return launch_status::failed(cudaErrorUnknown, std::string(call) + ": " + cublas_status_name(status));
}

}  // namespace

launch_status launch_cublas(const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                            const atax_config&, const launch_context& context) {
  if (context.cublas == nullptr)
    return launch_status::refused("cuBLAS needs a handle: create one per process (process_cublas_handle()), not per call");
  if (const cublasStatus_t st = cublasSetStream(context.cublas, context.stream); st != CUBLAS_STATUS_SUCCESS)
    return cublas_failed("cublasSetStream", st);
  // alpha and beta live on the host.
  if (const cublasStatus_t st = cublasSetPointerMode(context.cublas, CUBLAS_POINTER_MODE_HOST); st != CUBLAS_STATUS_SUCCESS)
    return cublas_failed("cublasSetPointerMode", st);
  const double one = 1.0, zero = 0.0;
  if (const cublasStatus_t st = cublasDgemv(context.cublas, CUBLAS_OP_T, s.ny, s.nx, &one, a, s.ny, x, 1, &zero, tmp, 1);
      st != CUBLAS_STATUS_SUCCESS)
    return cublas_failed("cublasDgemv (tmp = A x)", st);
  if (launch_status first = launch_status::after_launch("cublasDgemv (tmp = A x)"); !first) return first;
  if (const cublasStatus_t st = cublasDgemv(context.cublas, CUBLAS_OP_N, s.ny, s.nx, &one, a, s.ny, tmp, 1, &zero, y, 1);
      st != CUBLAS_STATUS_SUCCESS)
    return cublas_failed("cublasDgemv (y = A^T tmp)", st);
  return launch_status::after_launch("cublasDgemv (y = A^T tmp)");
}

}  // namespace kc::polybench::atax::detail
