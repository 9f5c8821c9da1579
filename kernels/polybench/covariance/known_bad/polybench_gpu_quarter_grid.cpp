// CovarianceCentringQuarterGrid: PolyBench/GPU's own covariance bug. Its host code launches the
// centring kernel (reduce_kernel) with
//   block2(DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y)            = 32 × 8
//   grid2(ceil(M) / DIM_THREAD_BLOCK_KERNEL_2_X, ceil(N) / DIM_THREAD_BLOCK_KERNEL_2_X)
// : the row count of the grid is divided by the block's x extent (32) where its y extent (8) belongs,
// so the grid covers 8·ceil(n / 32) rows, about a quarter of them; the rest are never centred. The
// mean and the product here are the correct pipeline's, so the row carries this one bug. (PolyBench
// also truncates the float quotient, which drops a partial block when n or m is not a multiple of 32;
// not reproduced, so what is caught is the quarter grid alone.) With FLOAT_N = 3214212.01 the mean is
// tiny, so leaving rows uncentred moves symmat by far less than PolyBench's 1.05% threshold: its own
// check cannot see its own bug there.
#include "kernels/polybench/covariance/launchers.hpp"

namespace kc::polybench::covariance::detail {

launch_status launch_centring_quarter_grid(double* data, double* mean, double* symmat, const dims& d, double float_n,
                                           const covariance_config& config, const launch_context& context) {
  if (launch_status status = enqueue_mean(data, mean, d, float_n, config.mean_block, context.stream); !status) return status;
  const auto blocks = [](int count, int per_block) { return static_cast<unsigned>((count + per_block - 1) / per_block); };
  const dim3 block(config.centre_x, config.centre_y);
  const dim3 grid(blocks(d.m, config.centre_x), blocks(d.n, config.centre_x));  // bug: centre_x where centre_y belongs
  if (launch_status status = enqueue_centring(data, mean, d, grid, block, context.stream); !status) return status;
  return enqueue_tiled_product(data, symmat, d, config.tile, context.stream);
}

}  // namespace kc::polybench::covariance::detail
