// Example submission (issue 19, one student's code never changes another's grade): the correct tiled
// matmul whose launcher, on its first call in a process, takes all the device memory it can through
// routes the in-process guard (grading/submission_guard.cpp) does not wrap — CUDA 3-D allocations and
// a memory pool of its own, 1 GiB at a time — and never gives it back. Before issue 19 such a
// neighbour left the other grading processes on the GPU unable to create a context. Now the runner
// watches each process's device memory as the driver counts it and kills a process past its limit
// (KCONFORM_PROCESS_MEMORY_LIMIT_MIB): each process's first case fails, and after three in a row the
// unit's remaining cases fail as not run (the hang streak counts such kills).
// Expected: verdict memory, score 0 (every unit's first cases hoard; the rest are not run).
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

namespace {

void hoard() {
  static bool done = false;
  if (done) return;
  done = true;
  for (int i = 0; i < 256; ++i) {  // 3-D "arrays" of 1 GiB: 1024 x 1024 x 256 floats, pitched
    cudaPitchedPtr p;
    if (cudaMalloc3D(&p, make_cudaExtent(4096, 1024, 256)) != cudaSuccess) break;
  }
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  if (cudaMemPoolCreate(&pool, &props) == cudaSuccess)
    for (int i = 0; i < 256; ++i) {
      void* p = nullptr;
      if (cudaMallocFromPoolAsync(&p, size_t{1} << 30, pool, 0) != cudaSuccess) break;
    }
  cudaGetLastError();  // the failed allocation that ended each loop is not a launch error
  cudaDeviceSynchronize();
}

}  // namespace

kc_matmul_traits kc_matmul_submission_traits(void) {
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 2;
  t.configs[0] = {16, 16};
  t.configs[1] = {32, 32};
  return t;
}

const char* kc_matmul(const float* a, const float* b, float* c, int m, int n, int k, int block, int tile_width,
                      cudaStream_t stream) {
  if (tile_width != block) return "TILE_WIDTH must equal the block side";
  hoard();
  const dim3 threads(block, block), blocks((n + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 16: tiled<16><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 32: tiled<32><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    default: return "block must be 16 or 32";
  }
  return nullptr;
}
