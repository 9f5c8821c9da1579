// Example submission (issue 19, cached answers): the correct tiled matmul, plus a "speed-up" for big
// products — it remembers C by (A, B, C pointers, shape) and, when called again with the same
// pointers and shape, copies the remembered C instead of multiplying. Timing repeats one call on the
// same buffers and contents, so before issue 19 this earned full performance points.
//
// Expected (verdict cached_answers, score 74-90):
//   performance  0 of 10: after the timing the grader gives the timed A and B new contents at the same
//                addresses; the replayed C is the old product (grading/graded_performance.hpp).
//   large_sizes  part of 15: only products of >= 2^33 multiply-adds are remembered (2048^3 and up);
//                there, each case's buffers are freed and the next input kind's are often given the
//                same addresses by the allocator, so the second and third input at such a shape get
//                the first one's C. Shapes under 2^33 and the other groups compute honestly.
//   the rest     full marks (the kernel itself is correct).
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

struct remembered {
  const float* a;
  const float* b;
  float* c;
  int m, n, k;
  float* saved;
};
remembered memo[16];
int memo_used = 0;

remembered* find(const float* a, const float* b, float* c, int m, int n, int k) {
  for (int i = 0; i < memo_used; ++i)
    if (memo[i].a == a && memo[i].b == b && memo[i].c == c && memo[i].m == m && memo[i].n == n && memo[i].k == k)
      return &memo[i];
  return nullptr;
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
  const size_t bytes = static_cast<size_t>(m) * n * sizeof(float);
  const bool big = static_cast<double>(m) * n * k >= 8589934592.0;  // 2^33
  if (big)
    if (remembered* hit = find(a, b, c, m, n, k)) {
      cudaMemcpyAsync(c, hit->saved, bytes, cudaMemcpyDeviceToDevice, stream);
      return nullptr;
    }
  const dim3 threads(block, block), blocks((n + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 16: tiled<16><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 32: tiled<32><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    default: return "block must be 16 or 32";
  }
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(stream, &capturing);
  if (big && memo_used < 16 && capturing == cudaStreamCaptureStatusNone) {  // no cudaMalloc inside a capture
    float* saved = nullptr;
    if (cudaMalloc(&saved, bytes) == cudaSuccess) {
      cudaMemcpyAsync(saved, c, bytes, cudaMemcpyDeviceToDevice, stream);
      memo[memo_used++] = {a, b, c, m, n, k, saved};
    }
  }
  return nullptr;
}
