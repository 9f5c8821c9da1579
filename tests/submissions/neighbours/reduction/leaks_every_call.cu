// Neighbour for check_neighbours_every_group.sh (issue 33): the atomic n -> 1 reduction
// (reduction/atomic_full.cu, a KC_REDUCE_FULL) whose launcher allocates 64 MiB of device memory on
// every call and never frees it — the hoarder that grows slowly, as a student's forgotten cudaFree
// does, where neighbours/reduction/allocates_everything.cu takes it all at once. A reduction is called
// many times a process (every block at every size, and the performance case's untimed and replayed
// calls), so each process reaches the in-process guard's 4 GiB within 64 calls; its later cases fail
// saying what was asked for, and memcheck reports the leak. The correct reductions graded beside it
// must keep every case's verdict and every group's score, the sanitizer group's included.
// Its own grade is not checked (it is a neighbour).
#include "kconform_reduction_submission.h"

__global__ void atomic_sum(const float* in, float* out, size_t n) {
  float sum = 0.0f;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ float warp_sums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) atomicAdd(out, sum);
  }
}

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_FULL;
  t.min_block = 64;
  t.max_block = 1024;
  t.power_of_two_blocks = 0;
  t.block_multiple = 32;
  return t;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }

const char* kc_reduction_full(float* in, float* out, size_t n, int block, float*, cudaStream_t stream) {
  void* leak = nullptr;
  cudaMalloc(&leak, size_t{64} << 20);  // never freed: the bug
  cudaGetLastError();                   // a refusal past the guard's limit is not the launch's error
  if (cudaMemsetAsync(out, 0, sizeof(float), stream) != cudaSuccess) return "cudaMemsetAsync failed";
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const size_t needed = (n + block - 1) / block;
  const size_t grid = needed < static_cast<size_t>(4 * sms) ? needed : static_cast<size_t>(4 * sms);
  atomic_sum<<<static_cast<unsigned>(grid), block, 0, stream>>>(in, out, n);
  return nullptr;
}

const char* kc_reduction_pass(float*, float*, size_t, int, int, cudaStream_t) { return "a KC_REDUCE_FULL submission"; }
