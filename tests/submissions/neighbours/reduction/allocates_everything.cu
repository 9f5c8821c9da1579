// Neighbour for check_neighbours_every_group.sh (issue 33): seed 000's K3 (reduction/correct.cu, a
// KC_REDUCE_PASS) whose pass, on its first call in a process, takes all the device memory it can and
// never gives it back — first through cudaMalloc (all that is free but 64 MiB, less 256 MiB a try until
// one is granted: the in-process guard grants at most its 4 GiB), then through the driver API's
// cuMemAlloc, 1 GiB at a time, which the guard cannot wrap (reached through
// cudaGetDriverEntryPointByVersion, as neighbours/hoards_memory_outside_the_guard.cu does for matmul).
// Both routes, because each is held by a different fence: the guard holds the first to 4 GiB, and the
// runner's NVML watch kills a process past 8 GiB (KCONFORM_PROCESS_MEMORY_LIMIT_MIB) only after it
// took the memory (it polls every 250 ms). Each fresh process hoards again, the sanitizer runs'
// processes too. The correct reductions graded beside it must keep every case's verdict and every
// group's score, the sanitizer group's included.
// Its own grade is not checked (it is a neighbour): memory failures in every group.
#include "kconform_reduction_submission.h"

__global__ void sequential_addressing(const float* in, float* out, size_t n) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

namespace {

using driver_mem_alloc = int (*)(unsigned long long* pointer, size_t bytes);

void take_everything() {
  static bool done = false;
  if (done) return;
  done = true;
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  const size_t keep = size_t{64} << 20, step = size_t{256} << 20;
  void* hoard = nullptr;
  while (free_bytes > keep + step && cudaMalloc(&hoard, free_bytes - keep) != cudaSuccess) free_bytes -= step;
  cudaGetLastError();  // the refusals above are its own business, not the launch's
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

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_PASS;
  t.min_block = 32;
  t.max_block = 1024;
  t.power_of_two_blocks = 1;
  t.block_multiple = 1;
  t.elements_per_thread = 1;
  return t;
}

const char* kc_reduction_pass(float* in, float* out, size_t n, int block, int grid, cudaStream_t stream) {
  take_everything();
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
