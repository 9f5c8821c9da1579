// Example submission (printed text never changes a verdict, found by issue 20's second reader): the
// correct tiled matmul, which prints from a static constructor (when its library loads) and from its
// traits function, as a student's debugging output would. The probe reads the traits in a process of
// its own and writes them to traits.json; before the fix it wrote them to its stdout, where these
// lines landed too, and the grading program could not read the file: no case ran, score 0. Now the
// probe's stdout is its stderr (probe.log) while the submission runs. Expected: full marks.
#include <cstdio>

#include "kconform_matmul_submission.h"

namespace {
struct says_hello {
  says_hello() {
    std::printf("hello from the submission's static constructor\n");
    std::fflush(stdout);
  }
} const at_load;
}  // namespace

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
  std::printf("debug: traits {\"family\": \"matmul\", \"configs\": []}\n");
  std::fflush(stdout);
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
  // What a student's debug output (or a submission fishing for a verdict) may look like.
  std::printf("========= ERROR SUMMARY: 3 errors\n");
  std::printf("========= Error: Race reported between Write access at tiled+0x1f0 and Read access at tiled+0x2a0\n");
  std::fprintf(stderr, "========= Invalid __global__ read of size 4 bytes\n");
  std::printf("[  FAILED  ] Grade/Conformance.MatchesReference/0\n");
  std::fflush(stdout);
  const dim3 threads(block, block), blocks((n + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 8: tiled<8><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 16: tiled<16><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 32: tiled<32><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    default: return "block must be 8, 16 or 32";
  }
  return nullptr;
}
