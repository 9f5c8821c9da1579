// Seed 000, kernels 3–5: sequential addressing (KERNELS.md §1).
#include "kernels/reduction/device_helpers.cuh"
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

// The tree shared by K3 and K4: s = blockDim/2 ... 1, the first s threads add the upper half onto
// the lower (contiguous, so conflict-free). Needs a power-of-two block.
__device__ void sequential_tree(float* partial) {
  const unsigned tid = threadIdx.x;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
}

// K3: one element per thread.
__global__ void sequential_addressing(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float partial[];
  partial[threadIdx.x] = load_or_zero(in, chunk_start(blockDim.x) + threadIdx.x, n);
  __syncthreads();
  sequential_tree(partial);
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// K4: each thread adds two elements, blockDim apart, while loading: half the blocks of K3.
__device__ __forceinline__ float load_pair(const float* in, std::size_t n) {
  const std::size_t i = chunk_start(2 * static_cast<std::size_t>(blockDim.x)) + threadIdx.x;
  return load_or_zero(in, i, n) + load_or_zero(in, i + blockDim.x, n);
}

__global__ void first_add_during_load(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float partial[];
  partial[threadIdx.x] = load_pair(in, n);
  __syncthreads();
  sequential_tree(partial);
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// K5: K4 with the last warp unrolled. Since Volta, a warp's threads are not guaranteed to run in
// lockstep, so the classic "volatile and no barrier" last warp is a race (the known-bad twin in
// known_bad/volatile_warp_unroll.cu). Here each step reads into a register, and __syncwarp()
// separates every read of a neighbour's cell from the write that replaces it.
__global__ void unrolled_last_warp(const float* __restrict__ in, std::size_t n, float* __restrict__ out) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  partial[tid] = load_pair(in, n);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = partial[tid];
    if (blockDim.x >= 64) v += partial[tid + 32];
#pragma unroll
    for (unsigned offset = 16; offset > 0; offset >>= 1) {
      partial[tid] = v;
      __syncwarp();
      if (tid < offset) v += partial[tid + offset];
      __syncwarp();
    }
    if (tid == 0) out[blockIdx.x] = v;
  }
}

}  // namespace

const void* sequential_addressing_function(int) { return reinterpret_cast<const void*>(&sequential_addressing); }
const void* first_add_during_load_function(int) { return reinterpret_cast<const void*>(&first_add_during_load); }
const void* unrolled_last_warp_function(int) { return reinterpret_cast<const void*>(&unrolled_last_warp); }

launch_status launch_sequential_addressing(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  sequential_addressing<<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("sequential_addressing");
}

launch_status launch_first_add_during_load(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  first_add_during_load<<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("first_add_during_load");
}

launch_status launch_unrolled_last_warp(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  unrolled_last_warp<<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), s>>>(in, g.n, out);
  return launch_status::after_launch("unrolled_last_warp");
}

}  // namespace kc::reduction::detail
