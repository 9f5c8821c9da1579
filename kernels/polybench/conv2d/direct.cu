// Conv2dDirect: seed 004's Convolution kernel, one thread per element of a, 2-D blocks, grid
// ceil(nj / block_x) × ceil(ni / block_y); the threads of the interior write b[i][j], the others
// (the border, and the threads past the edges of a partial block) write nothing.
//
// The seed's kernel as written is correct: its guard (Row > 0 && Col > 0 && Row < ni − 1 &&
// Col < nj − 1) is exactly the interior, its stencil matches KERNELS.md term by term, and its grid
// (NJ − 1) / 16 + 1 × (NI − 1) / 16 + 1 is ceil(nj / 16) × ceil(ni / 16) with x along the columns.
// (The report's listing shows `a[(Row + 0)*nj] + (Col + 0)]`: a stray bracket from the PDF's line
// breaks, not a bug in the code it ran.) So no "as written" known-bad row: this is the seed's kernel,
// with 64-bit indices (ni·nj may pass 2^31) and the block swept instead of fixed at 16×16.
#include "kernels/polybench/conv2d/launchers.hpp"
#include "kernels/polybench/conv2d/stencil.cuh"

namespace kc::polybench::conv2d::detail {
namespace {

__global__ void conv2d_direct(const double* __restrict__ a, double* __restrict__ b, std::size_t ni, std::size_t nj) {
  const std::size_t col = thread_col(), row = thread_row();
  if (!is_interior(row, col, ni, nj)) return;
  const double* mid = a + row * nj;
  b[row * nj + col] = stencil3x3<coefficients>(mid - nj, mid, mid + nj, col);
}

}  // namespace

const void* direct_function() { return reinterpret_cast<const void*>(conv2d_direct); }

launch_status launch_direct_on(const grid_2d& grid, const double* a, double* b, std::size_t ni, std::size_t nj,
                               const conv2d_config& config, cudaStream_t stream, const char* name) {
  conv2d_direct<<<blocks_of(grid), threads_of(config), 0, stream>>>(a, b, ni, nj);
  return launch_status::after_launch(name);
}

launch_status launch_direct(const double* a, double* b, std::size_t ni, std::size_t nj, const conv2d_config& config,
                            cudaStream_t stream) {
  return launch_direct_on(grid_for(ni, nj, config), a, b, ni, nj, config, stream, "conv2d_direct");
}

}  // namespace kc::polybench::conv2d::detail
