// Example submission (issue 32, the executor's trust boundary): the correct K3 (correct.cu), with a
// second pass of the same kernel over a private buffer of the same length (its result thrown away),
// so its honest time is about twice the reference's. It tries to make the judge's timing favour it
// through the GPU's L2 cache, which the judge and the executor share: when its library loads (and
// again in a call, outside a capture, on a device it has not set yet) it sets the device's
// persisting-L2 limit to the most the device allows (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
// persistingL2CacheMaxSize)), and in every call it sets an access policy window
// (cudaStreamSetAttribute, cudaAccessPropertyPersisting, hit ratio 1, the rest streaming) over its
// input and output (one window spanning both where the device's largest window holds them, else over
// the input) on the stream it is given, on the per-thread stream and on the legacy stream -- so its
// input stays in L2 from one timed call to the next, and the reference, timed beside it, finds less
// ordinary L2.
// The second pass reads a buffer of its own, not the input again: a call that re-reads its input
// may keep it in L2 for the re-read, which is the window's intended use within one call (issue 32's
// first H100 run of the earlier version, which ran the same pass twice over the input, measured 1.41
// for it). What this example checks is the attack across calls, so nothing it does within one call
// gains from the window.
// Before issue 32 the set-aside and the windows lasted for the grading process's whole timing. Now
// the judge resets the persisting lines and clears the set-aside before each timed sample
// (cudaCtxResetPersistingL2Cache, the limit set to 0), so every sample of both starts from the same
// L2; a refused call is passed by (its error cleared).
// Expected: sanitizer and slow, 88.5-94.5. Every value group full (small 20, odd 25, large 15, configs
// 15, edge 5): 80. The sanitizer group 2 of 3 tools (6.67 of 10): its second pass's two buffers are kept
// for the process's life and never freed, and memcheck (--leak-check full) reports both as leaked when
// the executor exits, outside any case ("Leaked 4100 bytes", 1025 floats each: on an H100, in the batch
// at 3ca004f and alone on the tree after it). A student's static scratch that is never freed is a leak by the
// grader's rule (docs/architecture.md: reports after the last case fail a clean run). Performance: ratio
// ~2 (two passes over n floats each, where the reference's multi-pass driver reads n once) -> (3 - 2) /
// (3 - 1.2) x 10 = 5.6 points: 92.2. The range allows the ratio from ~1.6 (94.44) to ~2.64 (88.67: launch
// gaps of the short passes counted twice; measured 2.3 in the batch, 90.58, and 1.9 alone, 92.67). Had
// the window kept the input in L2 from one sample to the next, the first pass would read up to the
// set-aside's 3/4 of L2 from it and the ratio would fall below 1.6.
#include "kconform_reduction_submission.h"

#include <algorithm>
#include <cstdint>

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

// The second pass's buffer and its output, grown as needed (never freed: the process's life).
float* own_input = nullptr;
float* own_output = nullptr;
size_t own_floats = 0;

bool own_buffers_for(size_t n, int grid, cudaStream_t stream) {
  const size_t need = std::max(n, static_cast<size_t>(grid));
  if (need <= own_floats) return true;
  (void)cudaFree(own_input);
  (void)cudaFree(own_output);
  own_floats = 0;
  if (cudaMalloc(&own_input, need * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&own_output, need * sizeof(float)) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  if (cudaMemsetAsync(own_input, 0, need * sizeof(float), stream) != cudaSuccess) return false;
  own_floats = need;
  return true;
}

int device_set = -1;       // the device whose persisting-L2 limit was raised
size_t largest_window = 0;  // its cudaDevAttrMaxAccessPolicyWindowSize

// The set-aside: as much of L2 as the device lets persisting accesses keep.
void raise_the_persisting_limit() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device == device_set) {
    (void)cudaGetLastError();
    return;
  }
  int most = 0, window = 0;
  if (cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, device) == cudaSuccess && most > 0 &&
      cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, device) == cudaSuccess) {
    (void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(most));
    largest_window = static_cast<size_t>(window);
    device_set = device;
  }
  (void)cudaGetLastError();
}

struct at_load {
  at_load() { raise_the_persisting_limit(); }
} const raised_at_load;

void keep_in_l2(const float* in, size_t n, const float* out, int grid, cudaStream_t stream) {
  if (largest_window == 0) return;
  const auto first = std::min(reinterpret_cast<std::uintptr_t>(in), reinterpret_cast<std::uintptr_t>(out));
  const auto last = std::max(reinterpret_cast<std::uintptr_t>(in + n), reinterpret_cast<std::uintptr_t>(out + grid));
  cudaStreamAttrValue window = {};
  const bool both = last - first <= largest_window;
  window.accessPolicyWindow.base_ptr = reinterpret_cast<void*>(both ? first : reinterpret_cast<std::uintptr_t>(in));
  window.accessPolicyWindow.num_bytes = both ? last - first : std::min(n * sizeof(float), largest_window);
  window.accessPolicyWindow.hitRatio = 1.0f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  for (cudaStream_t s : {stream, cudaStreamPerThread, cudaStreamLegacy})
    (void)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &window);
  (void)cudaGetLastError();
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
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capturing) == cudaSuccess && capturing == cudaStreamCaptureStatusNone)
    raise_the_persisting_limit();  // never inside a capture: a device-wide setting
  (void)cudaGetLastError();
  keep_in_l2(in, n, out, grid, stream);
  if (!own_buffers_for(n, grid, stream)) return "could not allocate the second pass's buffer";
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  // The slowness: the same pass over a buffer of its own (the window does not cover it).
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(own_input, own_output, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
