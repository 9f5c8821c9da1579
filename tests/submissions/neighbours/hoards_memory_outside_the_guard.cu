// Example submission (issue 19, one student's code never changes another's grade): the correct tiled
// matmul whose launcher, on its first call in a process, takes all the device memory it can through a
// route the in-process guard (grading/submission_guard.cpp) cannot wrap — the driver API's cuMemAlloc,
// reached through cudaGetDriverEntryPointByVersion, 1 GiB at a time — and never gives it back. (Its
// first version used cudaMalloc3D and a memory pool, which the guard now holds to its limit too.)
// Before issue 19 such a neighbour left the other grading processes on the GPU unable to create a
// context. Now the runner
// watches each process's device memory as the driver counts it and kills a process past its limit
// (KCONFORM_PROCESS_MEMORY_LIMIT_MIB): each process's first case fails, and after three in a row the
// unit's remaining cases fail as not run (the hang streak counts such kills).
// Its own grade is not checked (it is a neighbour): memory failures; on the H200 it scored 30 and 84.
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

// cuMemAlloc from the driver API, reached through the runtime: no runtime allocation call is made, so
// the in-process guard (which holds cudaMalloc, cudaMalloc3D, pools, arrays and the device heap to
// 4 GiB) never sees it.
using driver_mem_alloc = int (*)(unsigned long long* pointer, size_t bytes);

void hoard() {
  static bool done = false;
  if (done) return;
  done = true;
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found;
  if (cudaGetDriverEntryPointByVersion("cuMemAlloc", &entry, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      entry == nullptr)
    return;
  const auto mem_alloc = reinterpret_cast<driver_mem_alloc>(entry);
  for (int i = 0; i < 256; ++i) {  // 1 GiB at a time, never freed
    unsigned long long pointer = 0;
    if (mem_alloc(&pointer, size_t{1} << 30) != 0) break;
  }
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
