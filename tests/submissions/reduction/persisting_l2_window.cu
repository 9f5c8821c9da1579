// Example submission (issue 32, the executor's trust boundary): the correct K3 (correct.cu), launched
// twice per call (the second run writes the same partial sums), so its honest time is about twice the
// reference's, and it tries to make the judge's timing favour it through the GPU's L2 cache, which
// the judge and the executor share: when its library loads (and again in a call, outside a capture,
// on a device it has not set yet) it sets the device's persisting-L2 limit to the most the device
// allows (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persistingL2CacheMaxSize)), and in every
// call it sets an access policy window (cudaStreamSetAttribute, cudaAccessPropertyPersisting, hit
// ratio 1, the rest streaming) over its input and output (one window spanning both where the device's
// largest window holds them, else over the input) on the stream it is given, on the per-thread
// stream and on the legacy stream -- so its data stays in L2 from one timed call to the next, and
// the reference, timed beside it, finds less ordinary L2.
// Before issue 32 the set-aside and the windows lasted for the grading process's whole timing. Now
// the judge resets the persisting lines and clears the set-aside before each timed sample
// (cudaCtxResetPersistingL2Cache, the limit set to 0), so every sample of both starts from the same
// L2; a refused call is passed by (its error cleared).
// Expected: slow, 92-98. Every value group full (small 20, odd 25, large 15, configs 15, edge 5) and
// the sanitizer group (10): 90. Performance: ratio ~2 (two launches of the same pass at n = 2^24;
// the reference's multi-pass driver launches once per pass) -> (3 - 2) / (3 - 1.2) x 10 = 5.6 points:
// 95.6. The range allows the ratio from ~1.6 (98: the second run finds part of its input still in L2)
// to ~2.5 (92.8: launch gaps of the short passes counted twice).
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
  for (int again = 0; again < 2; ++again)  // the slowness: the same pass, twice
    sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
