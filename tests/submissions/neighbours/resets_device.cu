// Neighbour for check_neighbours.sh: the correct tiled matmul whose launcher calls cudaDeviceReset()
// at m = 33 (destroying its own process's context and every buffer the grader made in it). Its own
// cases fail from there; a reset is per process, so its neighbours must not notice.
#include "kconform_matmul_submission.h"

template <int TILE>
__global__ void tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (k + TILE - 1) / TILE; ++t) {
    const int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
    as[threadIdx.y][threadIdx.x] = row < m && ac < k ? a[static_cast<size_t>(row) * k + ac] : 0.0f;
    bs[threadIdx.y][threadIdx.x] = br < k && col < n ? b[static_cast<size_t>(br) * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < TILE; ++j) sum += as[threadIdx.y][j] * bs[j][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<size_t>(row) * n + col] = sum;
}

kc_matmul_traits kc_matmul_submission_traits(void) {
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 2;
  t.configs[0] = {16, 16};
  t.configs[1] = {8, 8};
  t.configs[2] = {32, 32};
  return t;
}

const char* kc_matmul(const float* a, const float* b, float* c, int m, int n, int k, int block, int tile_width,
                      cudaStream_t stream) {
  if (tile_width != block) return "TILE_WIDTH must equal the block side";
  if (m == 33) cudaDeviceReset();

  const dim3 threads(block, block), blocks((n + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 8: tiled<8><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 16: tiled<16><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 32: tiled<32><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    default: return "block must be 8, 16 or 32";
  }
  return nullptr;
}
