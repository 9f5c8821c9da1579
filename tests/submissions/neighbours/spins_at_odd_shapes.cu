// Neighbour for check_neighbours.sh: the tiled matmul whose kernel spins forever when m is not a
// multiple of 32. Its odd shapes hang until the kernel deadline (10 s each) and its hang budget (60 s)
// stops it; meanwhile it shares the GPU's time with its neighbours, whose verdicts must not change.
#include "kconform_matmul_submission.h"

template <int TILE>
__global__ void tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  while (m % 32 != 0) __nanosleep(1000);  // the bug: a wait for a flag only the aligned path ever sets
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
  const dim3 threads(block, block), blocks((n + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 8: tiled<8><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 16: tiled<16><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 32: tiled<32><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    default: return "block must be 8, 16 or 32";
  }
  return nullptr;
}
