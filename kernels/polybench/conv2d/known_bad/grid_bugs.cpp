// KNOWN-BAD. The seed's (correct) kernel, direct.cu's, launched with a wrong grid; both slips are invisible at
// square sizes, the only ones seed 004 and PolyBench/GPU ran (the report's table is "ΝΙxΝΙ";
// PolyBench/GPU defines NI = NJ = 4096).
//   Conv2dGridFromNiBothDims  numBlocksX = (NI − 1) / B + 1, computed from ni as numBlocksY is, where
//                             (NJ − 1) / B + 1 belongs (the seed's own launch code writes each from
//                             its own dimension). When nj > ceil(ni / block_x)·block_x the columns
//                             past it have no thread: those interior points of b are never written
//                             (the poison stays). When ni > nj the extra column blocks find nothing
//                             to do (the kernel's guard holds) and the rows are covered: right there.
//   Conv2dGridSwapped         PolyBench/GPU's own launch (2DConvolution.cu, convolution2DCuda):
//                             grid(ceil(NI / block.x), ceil(NJ / block.y)) while its kernel takes j
//                             (columns) from x and i (rows) from y. Columns past ceil(ni / block_x)·
//                             block_x and rows past ceil(nj / block_y)·block_y are never written: it
//                             fails on wide and on tall arrays.
#include "kernels/polybench/conv2d/launchers.hpp"

namespace kc::polybench::conv2d::detail {

std::string grid_swapped_constraint(std::size_t, std::size_t nj, const conv2d_config& config) {
  const std::size_t rows_of_blocks = grid_swapped(1, nj, config).y;
  if (rows_of_blocks > 65535)
    return "its grid takes ceil(nj / block_y) = " + std::to_string(rows_of_blocks) +
           " row blocks, past CUDA's 65535 (the launch itself would fail)";
  return {};
}

launch_status launch_grid_from_ni_both_dims(const double* a, double* b, std::size_t ni, std::size_t nj,
                                            const conv2d_config& config, cudaStream_t stream) {
  return launch_direct_on(grid_from_ni_both_dims(ni, nj, config), a, b, ni, nj, config, stream,
                          "conv2d (grid from ni in both dimensions)");
}

launch_status launch_grid_swapped(const double* a, double* b, std::size_t ni, std::size_t nj,
                                  const conv2d_config& config, cudaStream_t stream) {
  return launch_direct_on(grid_swapped(ni, nj, config), a, b, ni, nj, config, stream,
                          "conv2d (PolyBench/GPU's swapped grid)");
}

}  // namespace kc::polybench::conv2d::detail
