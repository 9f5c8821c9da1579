// KNOWN-BAD. Seed 000's kernel 3 with the off-by-one `if (tid <= s)`: thread s also acts, adding
// partial[2s] into partial[s] — a cell that thread 0 reads in the same step (a race) and that the
// next step adds in again (double counting). The shared array gets one spare, zeroed cell so the
// first step's read of partial[blockDim] stays in bounds: the bug under test is the logic, not a
// shared-memory fault.
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

__global__ void sequential_tid_le_s(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  if (tid == 0) partial[blockDim.x] = 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid <= s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

}  // namespace

launch_status launch_sequential_tid_le_s(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  sequential_tid_le_s<<<static_cast<unsigned>(g.grid), g.block, (g.block + 1) * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("sequential_tid_le_s");
}

}  // namespace kc::reduction::detail
