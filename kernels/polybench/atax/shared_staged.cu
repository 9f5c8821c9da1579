// AtaxSharedStaged: the seed's technique — chunks of x (then of tmp) staged in shared memory by the
// whole block, each thread then reading the chunk from there — with what the seed got wrong put
// right:
//   - the two products are two kernels on one stream (the seed fused them with no grid-wide
//     barrier between tmp's writers and readers);
//   - A is indexed as the row-major nx × ny matrix it is, A[i][j] = a[i·ny + j] (the seed's
//     A[tid + r·nx] is Aᵀ's layout, right for the first product only when A is symmetric);
//   - every bound is checked: the inner loop stops at the chunk's last valid entry (the seed ran it
//     to BLOCK_SIZE past ny), threads past the last row or column stage but neither read A nor write.
// The chunk is dynamic shared memory of `block` doubles, so any block size runs.
#include "kernels/polybench/atax/launchers.hpp"

namespace kc::polybench::atax::detail {
namespace {

__device__ __forceinline__ std::size_t global_thread() {
  return static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
}

// tmp[i] = Σ_j A[i][j]·x[j]: thread i = row i; x staged blockDim.x entries at a time.
__global__ void staged_rows_times_x(const double* __restrict__ a, const double* __restrict__ x,
                                    double* __restrict__ tmp, int nx, int ny) {
  extern __shared__ double chunk[];
  const std::size_t i = global_thread();
  const bool owns_row = i < static_cast<std::size_t>(nx);
  const double* row = a + (owns_row ? i * static_cast<std::size_t>(ny) : 0);
  double sum = 0.0;
  for (std::size_t start = 0; start < static_cast<std::size_t>(ny); start += blockDim.x) {
    const std::size_t j = start + threadIdx.x;
    chunk[threadIdx.x] = j < static_cast<std::size_t>(ny) ? x[j] : 0.0;
    __syncthreads();
    const std::size_t width = min(static_cast<std::size_t>(blockDim.x), static_cast<std::size_t>(ny) - start);
    if (owns_row)
      for (std::size_t e = 0; e < width; ++e) sum += row[start + e] * chunk[e];
    __syncthreads();  // the chunk is overwritten next round only after every thread has read it
  }
  if (owns_row) tmp[i] = sum;
}

// y[j] = Σ_i A[i][j]·tmp[i]: thread j = column j (a warp reads consecutive A[i][j]: coalesced);
// tmp staged blockDim.x entries at a time.
__global__ void staged_columns_times_tmp(const double* __restrict__ a, const double* __restrict__ tmp,
                                         double* __restrict__ y, int nx, int ny) {
  extern __shared__ double chunk[];
  const std::size_t j = global_thread();
  const bool owns_column = j < static_cast<std::size_t>(ny);
  double sum = 0.0;
  for (std::size_t start = 0; start < static_cast<std::size_t>(nx); start += blockDim.x) {
    const std::size_t i = start + threadIdx.x;
    chunk[threadIdx.x] = i < static_cast<std::size_t>(nx) ? tmp[i] : 0.0;
    __syncthreads();
    const std::size_t height = min(static_cast<std::size_t>(blockDim.x), static_cast<std::size_t>(nx) - start);
    if (owns_column)
      for (std::size_t e = 0; e < height; ++e) sum += a[(start + e) * static_cast<std::size_t>(ny) + j] * chunk[e];
    __syncthreads();
  }
  if (owns_column) y[j] = sum;
}

}  // namespace

std::size_t shared_staged_bytes(int block) { return static_cast<std::size_t>(block) * sizeof(double); }

std::string shared_staged_constraint(const atax_shape&, const atax_config& config, const device_limits& limits) {
  if (shared_staged_bytes(config.block) > limits.shared_memory_per_block)
    return "block " + std::to_string(config.block) + " stages " + std::to_string(shared_staged_bytes(config.block)) +
           " bytes of shared memory, more than this device's " + std::to_string(limits.shared_memory_per_block) +
           " per block; use a smaller block";
  return {};
}

launch_status launch_shared_staged(const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                                   const atax_config& config, const launch_context& context) {
  const std::size_t shared = shared_staged_bytes(config.block);
  staged_rows_times_x<<<static_cast<unsigned>(blocks_for(s.nx, config.block)), config.block, shared, context.stream>>>(
      a, x, tmp, s.nx, s.ny);
  if (launch_status first = launch_status::after_launch("staged_rows_times_x"); !first) return first;
  staged_columns_times_tmp<<<static_cast<unsigned>(blocks_for(s.ny, config.block)), config.block, shared,
                             context.stream>>>(a, tmp, y, s.nx, s.ny);
  return launch_status::after_launch("staged_columns_times_tmp");
}

}  // namespace kc::polybench::atax::detail
