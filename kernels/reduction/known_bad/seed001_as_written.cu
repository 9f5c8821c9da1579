// KNOWN-BAD. Seed 001's two kernels exactly as the report wrote them (the report's global
// `arraySize` is passed as a parameter of the same name; the unused BLOCK_SIZE template parameter
// is dropped). Neither loop limits which threads act in a step:
//   sumKernelStr2: every thread adds at every step (no threadIdx.x % odstep == 0 guard): elements
//     are counted more than once, threads read across into the next block's slice, and reads race
//     with other threads' writes.
//   sumKernelStr3: the upper half of the threads (no threadIdx.x < odstep guard) write cells the
//     lower half reads in the same step.
// Measured on an H200 with the seed's code: Str3 wrong in 20/20 runs at every block size, Str2 in
// 20/20 at blocks 256–1024 but only 10/20 at block 128 — a race, so the suite runs it many times.
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

__global__ void sumKernelStr2(float* c, float* a, unsigned int arraySize) {
  unsigned int tid = 2 * threadIdx.x + 2 * blockDim.x * blockIdx.x;

  for (unsigned int odstep = 1; odstep < 2 * blockDim.x; odstep *= 2) {
    if (tid + odstep < arraySize)
      a[tid] += a[tid + odstep];
    __syncthreads();
  }

  if (threadIdx.x == 0) c[blockIdx.x] = a[2 * blockIdx.x * blockDim.x];
}

__global__ void sumKernelStr3(float* c, float* a, unsigned int arraySize) {
  unsigned int tid = threadIdx.x + 2 * blockDim.x * blockIdx.x;

  for (unsigned int odstep = blockDim.x; odstep > 0; odstep /= 2) {
    if (tid + odstep < arraySize)
      a[tid] += a[tid + odstep];
    __syncthreads();
  }

  if (threadIdx.x == 0) c[blockIdx.x] = a[2 * blockIdx.x * blockDim.x];
}

}  // namespace

launch_status launch_str2_as_written(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  sumKernelStr2<<<static_cast<unsigned>(g.grid), g.block, 0, s>>>(out, in, static_cast<unsigned>(g.n));
  return launch_status::after_launch("sumKernelStr2 (as written)");
}

launch_status launch_str3_as_written(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  sumKernelStr3<<<static_cast<unsigned>(g.grid), g.block, 0, s>>>(out, in, static_cast<unsigned>(g.n));
  return launch_status::after_launch("sumKernelStr3 (as written)");
}

}  // namespace kc::reduction::detail
