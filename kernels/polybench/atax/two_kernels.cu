// AtaxTwoKernels: tmp = A·x with one thread per row, then y = Aᵀ·tmp with one thread per column,
// as two launches on one stream (the stream orders them: every tmp[i] is written before any y[j]
// is summed). The second product reads A[i][j] for consecutive j across a warp: coalesced. The
// first walks one row per thread (PolyBench/GPU's atax_kernel1 layout); the seed's reason to read
// A by columns was speed, which is the second product's access here.
#include "kernels/polybench/atax/launchers.hpp"

namespace kc::polybench::atax::detail {
namespace {

__device__ __forceinline__ std::size_t global_thread() {
  return static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
}

__global__ void rows_times_vector(const double* __restrict__ a, const double* __restrict__ v, double* __restrict__ out,
                                  int rows, int cols) {
  const std::size_t i = global_thread();
  if (i >= static_cast<std::size_t>(rows)) return;
  const double* row = a + i * static_cast<std::size_t>(cols);
  double sum = 0.0;
  for (int j = 0; j < cols; ++j) sum += row[j] * v[j];
  out[i] = sum;
}

__global__ void columns_times_vector(const double* __restrict__ a, const double* __restrict__ v,
                                     double* __restrict__ out, int rows, int cols) {
  const std::size_t j = global_thread();
  if (j >= static_cast<std::size_t>(cols)) return;
  double sum = 0.0;
  for (int i = 0; i < rows; ++i) sum += a[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + j] * v[i];
  out[j] = sum;
}

}  // namespace

launch_status launch_rows_times_vector(const double* a, const double* v, double* out, int rows, int cols, int block,
                                       cudaStream_t stream) {
  rows_times_vector<<<static_cast<unsigned>(blocks_for(rows, block)), block, 0, stream>>>(a, v, out, rows, cols);
  return launch_status::after_launch("rows_times_vector");
}

launch_status launch_columns_times_vector(const double* a, const double* v, double* out, int rows, int cols, int block,
                                          cudaStream_t stream) {
  columns_times_vector<<<static_cast<unsigned>(blocks_for(cols, block)), block, 0, stream>>>(a, v, out, rows, cols);
  return launch_status::after_launch("columns_times_vector");
}

launch_status launch_two_kernels(const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                                 const atax_config& config, const launch_context& context) {
  if (launch_status first = launch_rows_times_vector(a, x, tmp, s.nx, s.ny, config.block, context.stream); !first)
    return first;
  return launch_columns_times_vector(a, tmp, y, s.nx, s.ny, config.block, context.stream);
}

}  // namespace kc::polybench::atax::detail
