// The correct covariance pipeline (CovarianceMultiKernel): the seed's three phases as three kernels,
// so each kernel boundary is the grid-wide barrier the seed's fused kernel lacks.
//   column_mean     one thread per column sums it down the rows (a warp reads 32 consecutive
//                   doubles of one row: coalesced, as the seed's report argues) and divides by FLOAT_N.
//   centre_columns  one thread per element, 2-D blocks (PolyBench/GPU's 32 × 8 by default).
//   tiled_product   symmat = dataᵀ·data with tile × tile shared-memory tiles (the course-slide tiled
//                   product the seed adapts, with both tiles read from data): block (bx, by) computes
//                   symmat[by·T ..][bx·T ..]; for each band of T rows of data it stages the band's
//                   columns by·T .. (a_tile) and bx·T .. (b_tile). Every block of the m × m grid runs,
//                   so both triangles are computed (as the seed did: it never used the symmetry);
//                   S[j1][j2] and S[j2][j1] come out bitwise equal, since their products are the same
//                   pairs in the same order. Tiles past data's edge are padded with zeros (adding an
//                   exact 0 rounds nothing), so any n, m is right.
#include "kernels/polybench/covariance/launchers.hpp"

namespace kc::polybench::covariance::detail {
namespace {

__global__ void column_mean(const double* __restrict__ data, double* __restrict__ mean, int n, int m, double float_n) {
  const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (j >= m) return;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += data[static_cast<std::size_t>(i) * m + j];
  mean[j] = sum / float_n;
}

__global__ void centre_columns(double* __restrict__ data, const double* __restrict__ mean, int n, int m) {
  const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (i < n && j < m) data[static_cast<std::size_t>(i) * m + j] -= mean[j];
}

template <int Tile>
__global__ void tiled_product(const double* __restrict__ data, double* __restrict__ symmat, int n, int m) {
  // a_tile[k][r]: data[band + k][by·T + r]; b_tile[k][c]: data[band + k][bx·T + c]. A warp reads
  // a_tile[k][ty] (one or a few addresses: broadcast) and b_tile[k][tx] (consecutive): no conflicts.
  __shared__ double a_tile[Tile][Tile];
  __shared__ double b_tile[Tile][Tile];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * Tile + ty;       // j1: symmat's row
  const int col = static_cast<int>(blockIdx.x) * Tile + tx;       // j2: symmat's column
  const int row_load = static_cast<int>(blockIdx.y) * Tile + tx;  // the column of data a_tile stages
  double sum = 0.0;
  for (int band = 0; band < n; band += Tile) {
    const int i = band + ty;
    const std::size_t offset = static_cast<std::size_t>(i) * m;
    a_tile[ty][tx] = i < n && row_load < m ? data[offset + row_load] : 0.0;
    b_tile[ty][tx] = i < n && col < m ? data[offset + col] : 0.0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Tile; ++k) sum += a_tile[k][ty] * b_tile[k][tx];
    __syncthreads();  // the next band must not overwrite a tile others still read
  }
  if (row < m && col < m) symmat[static_cast<std::size_t>(row) * m + col] = sum;
}

__global__ void mirror_lower_to_upper(double* symmat, int m) {
  const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int r = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (r < c && c < m) symmat[static_cast<std::size_t>(r) * m + c] = symmat[static_cast<std::size_t>(c) * m + r];
}

unsigned blocks_for(int count, int per_block) { return static_cast<unsigned>((count + per_block - 1) / per_block); }

template <int Tile>
void launch_product(const double* data, double* symmat, const dims& d, cudaStream_t stream) {
  const dim3 grid(blocks_for(d.m, Tile), blocks_for(d.m, Tile));
  tiled_product<Tile><<<grid, dim3(Tile, Tile), 0, stream>>>(data, symmat, d.n, d.m);
}

}  // namespace

launch_status enqueue_mean(const double* data, double* mean, const dims& d, double float_n, int block, cudaStream_t stream) {
  column_mean<<<blocks_for(d.m, block), block, 0, stream>>>(data, mean, d.n, d.m, float_n);
  return launch_status::after_launch("covariance column_mean");
}

dim3 centring_grid(const dims& d, const covariance_config& config) {
  return dim3(blocks_for(d.m, config.centre_x), blocks_for(d.n, config.centre_y));
}

launch_status enqueue_centring(double* data, const double* mean, const dims& d, dim3 grid, dim3 block, cudaStream_t stream) {
  centre_columns<<<grid, block, 0, stream>>>(data, mean, d.n, d.m);
  return launch_status::after_launch("covariance centre_columns");
}

launch_status enqueue_tiled_product(const double* data, double* symmat, const dims& d, int tile, cudaStream_t stream) {
  switch (tile) {
    case 8: launch_product<8>(data, symmat, d, stream); break;
    case 16: launch_product<16>(data, symmat, d, stream); break;
    case 32: launch_product<32>(data, symmat, d, stream); break;
    default: return launch_status::refused("tile " + std::to_string(tile) + " is not built: the product exists for tiles 8, 16 and 32");
  }
  return launch_status::after_launch("covariance tiled_product");
}

launch_status enqueue_mirror_lower_to_upper(double* symmat, int m, const covariance_config& config, cudaStream_t stream) {
  const dim3 grid(blocks_for(m, config.centre_x), blocks_for(m, config.centre_y));
  mirror_lower_to_upper<<<grid, dim3(config.centre_x, config.centre_y), 0, stream>>>(symmat, m);
  return launch_status::after_launch("covariance mirror_lower_to_upper");
}

launch_status enqueue_mean_and_centring(double* data, double* mean, const dims& d, double float_n,
                                        const covariance_config& config, cudaStream_t stream) {
  if (launch_status status = enqueue_mean(data, mean, d, float_n, config.mean_block, stream); !status) return status;
  return enqueue_centring(data, mean, d, centring_grid(d, config), dim3(config.centre_x, config.centre_y), stream);
}

const void* tiled_product_function(int tile) {
  switch (tile) {
    case 8: return reinterpret_cast<const void*>(&tiled_product<8>);
    case 16: return reinterpret_cast<const void*>(&tiled_product<16>);
    case 32: return reinterpret_cast<const void*>(&tiled_product<32>);
    default: return nullptr;
  }
}

launch_status launch_multi_kernel(double* data, double* mean, double* symmat, const dims& d, double float_n,
                                  const covariance_config& config, const launch_context& context) {
  if (launch_status status = enqueue_mean_and_centring(data, mean, d, float_n, config, context.stream); !status) return status;
  return enqueue_tiled_product(data, symmat, d, config.tile, context.stream);
}

}  // namespace kc::polybench::covariance::detail
