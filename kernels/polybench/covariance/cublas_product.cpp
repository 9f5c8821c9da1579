// CovarianceCublas: the pipeline's own mean and centring kernels, then cuBLAS DSYRK for the product
// and a mirror kernel for the other triangle.
//
// The operand choices, reasoned as matmul's CublasRowMajor does: cuBLAS is column-major, so the
// row-major n × m array data (D[i][j] at i·m + j) is, to cuBLAS, the column-major m × n matrix
// X = Dᵀ with leading dimension m (X(r, c) at r + c·m = D[c][r]). Then symmat = Dᵀ·D = X·Xᵀ, which is
// DSYRK with trans = N, order m, k = n, A = X (lda = m), C = symmat (ldc = m). A symmetric C reads the
// same either way round, but DSYRK writes one triangle only: FILL_MODE_UPPER writes C(r, c) for r <= c,
// at r + c·m, which is row-major symmat[c][r] with c >= r — the row-major *lower* triangle (diagonal
// included). The mirror kernel then copies it to the upper one. With beta = 0, C is not read (BLAS: C
// need not be set on input), so the poisoned symmat does not leak into the result.
#include "kernels/polybench/covariance/launchers.hpp"

#include "fixtures/cuda_check.hpp"

namespace kc::polybench::covariance::detail {

launch_status launch_cublas(double* data, double* mean, double* symmat, const dims& d, double float_n,
                            const covariance_config& config, const launch_context& context) {
  if (context.cublas == nullptr)
    return launch_status::refused("CovarianceCublas needs a cuBLAS handle in the launch context: create one per process "
                                  "(fixtures/cublas_handle.hpp), not per call");
  if (launch_status status = enqueue_mean_and_centring(data, mean, d, float_n, config, context.stream); !status) return status;
  if (const cublasStatus_t st = cublasSetStream(context.cublas, context.stream); st != CUBLAS_STATUS_SUCCESS)
    return launch_status::failed(cudaErrorUnknown, std::string("cublasSetStream: ") + cublas_status_name(st));
  const double one = 1.0, zero = 0.0;
  const cublasStatus_t st = cublasDsyrk(context.cublas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, d.m, d.n, &one, data, d.m,
                                        &zero, symmat, d.m);
  if (st != CUBLAS_STATUS_SUCCESS) return launch_status::failed(cudaErrorUnknown, std::string("cublasDsyrk: ") + cublas_status_name(st));
  if (launch_status status = launch_status::after_launch("cublasDsyrk"); !status) return status;
  return enqueue_mirror_lower_to_upper(symmat, d.m, config, context.stream);
}

}  // namespace kc::polybench::covariance::detail
