// The covariance registry's launch functions (one per row) and the pipeline's stages, which the
// rows compose: the correct pipeline is mean → centring → product, the cuBLAS peer swaps the product
// for DSYRK + mirror, and most known-bad rows change one stage and reuse the others (so each carries
// exactly one bug). Each stage enqueues on `stream` and reports cudaGetLastError(); none synchronises.
// Kernels: pipeline.cu; cuBLAS: cublas_product.cpp; known-bad rows: known_bad/.
#pragma once

#include "kernels/polybench/covariance/covariance.hpp"

namespace kc::polybench::covariance::detail {

#define KC_COVARIANCE_LAUNCHER(name)                                                                             \
  launch_status name(double* data, double* mean, double* symmat, const dims& d, double float_n,                 \
                     const covariance_config& config, const launch_context& context)

// ---- the pipeline's stages (pipeline.cu) ----
// mean[j] = Σ_i data[i][j] / float_n: one thread per column, 1-D blocks of `block` threads.
launch_status enqueue_mean(const double* data, double* mean, const dims& d, double float_n, int block, cudaStream_t stream);
// data[i][j] -= mean[j] for the rows and columns `grid` × `block` covers (x along columns, y along
// rows). centring_grid() is the grid that covers them all.
dim3 centring_grid(const dims& d, const covariance_config& config);
launch_status enqueue_centring(double* data, const double* mean, const dims& d, dim3 grid, dim3 block, cudaStream_t stream);
// symmat = dataᵀ·data, both triangles, with tile × tile shared-memory tiles (tile 8, 16 or 32).
launch_status enqueue_tiled_product(const double* data, double* symmat, const dims& d, int tile, cudaStream_t stream);
// symmat[r][c] = symmat[c][r] for r < c (row-major): fills the upper triangle from the lower one.
launch_status enqueue_mirror_lower_to_upper(double* symmat, int m, const covariance_config& config, cudaStream_t stream);
// mean then centring with config's blocks, centring's grid covering every row and column.
launch_status enqueue_mean_and_centring(double* data, double* mean, const dims& d, double float_n,
                                        const covariance_config& config, cudaStream_t stream);
// The product kernel's __global__ function for `tile` (nullptr if not built), for kernel_handle_of.
const void* tiled_product_function(int tile);

// ---- correct rows ----
KC_COVARIANCE_LAUNCHER(launch_multi_kernel);  // pipeline.cu
KC_COVARIANCE_LAUNCHER(launch_cublas);        // cublas_product.cpp

// ---- known-bad rows (known_bad/) ----
KC_COVARIANCE_LAUNCHER(launch_fused_as_written);         // fused_as_written.cu
KC_COVARIANCE_LAUNCHER(launch_centring_quarter_grid);    // polybench_gpu_quarter_grid.cpp
KC_COVARIANCE_LAUNCHER(launch_divides_by_n_minus_1);     // statistic_bugs.cu
KC_COVARIANCE_LAUNCHER(launch_skips_centring);           // statistic_bugs.cu
KC_COVARIANCE_LAUNCHER(launch_mean_divides_by_rows);     // statistic_bugs.cu

// Their own constraints.
std::string fused_as_written_constraint(const dims& d, const covariance_config& config);
std::string sample_covariance_constraint(const dims& d, const covariance_config& config);

#undef KC_COVARIANCE_LAUNCHER

}  // namespace kc::polybench::covariance::detail
