// Example submission (issue 32, the executor's trust boundary): the correct K3 (correct.cu) that does
// its work outside the timed region. It recognises a timed call in the two ways the grader's source
// shows: its stream is being captured (cudaStreamIsCapturing: the timing before issue 32 captured the
// call into a CUDA graph and replayed it), or the call repeats, within 20 ms of the last, the same
// pass at the timed size n = 2^24 (same in, out, n, block and grid) for the fifth time or more (the
// judge's timing calls it on the same buffers over and over; its first two, untimed, calls and any
// value case get the honest kernel). Then the launcher enqueues nothing and returns at once, handing
// the pass to a detached std::thread that sleeps 2 ms (past the end of the timed region) and then
// launches it on a non-blocking stream of its own (cudaStreamCreateWithFlags) and synchronises it; a
// later pass that reads a deferred pass's output is deferred behind it. The deferred passes keep the
// order they were asked in (a ticket each), a buffer that is no longer mapped is not launched on
// (cudaPointerGetAttributes), and an exit waits for the passes in flight (atexit), so the attack
// itself never faults. Every other call launches normally, so every value case, and every sanitizer
// run, sees the honest kernel.
// What it gains: the timed call returns at once, its work done after the region closes. Now the judge
// (grading/judged_timing.hpp) copies the timed call's outputs before its region ends and compares
// them with what untimed calls on the same inputs write: the copy holds the poison the outputs were
// filled with, and the case fails, verdict timing_evaded, performance not scored.
// Expected: timing_evaded, 88-91. Every value group full (small 20, odd 25, large 15, configs 15,
// edge 5) and the sanitizer group (10): 90; performance 0 of 10.
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

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

struct deferred_passes {
  std::mutex mutex;
  std::condition_variable turn;
  unsigned long long next_ticket = 0, serving = 0;
  int pending = 0;
  cudaStream_t stream = nullptr;  // its own, non-blocking: no order with the caller's stream
  bool exit_waits = false;
  std::multiset<const float*> outputs;  // of the passes not yet run: a pass reading one waits too
};

deferred_passes& deferred() {
  static deferred_passes* d = new deferred_passes;  // never destroyed: its threads may outlive main
  return *d;
}

// At exit, before the CUDA runtime's own teardown (registered after the runtime's): no pass left
// half-launched while the runtime goes away.
void wait_for_deferred_passes() {
  deferred_passes& d = deferred();
  std::unique_lock<std::mutex> lock(d.mutex);
  d.turn.wait_for(lock, std::chrono::seconds(5), [&d] { return d.pending == 0; });
}

bool still_allocated(const void* pointer) {
  cudaPointerAttributes attributes;
  const bool allocated =
      cudaPointerGetAttributes(&attributes, pointer) == cudaSuccess && attributes.type == cudaMemoryTypeDevice;
  (void)cudaGetLastError();
  return allocated;
}

void pass_later(float* in, float* out, size_t n, int block, int grid, unsigned long long ticket) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));  // past the end of the timed region
  deferred_passes& d = deferred();
  std::unique_lock<std::mutex> lock(d.mutex);
  d.turn.wait(lock, [&d, ticket] { return d.serving == ticket; });  // the passes in the order asked
  if (d.stream == nullptr && cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking) != cudaSuccess)
    d.stream = nullptr;
  if (d.stream != nullptr && still_allocated(in) && still_allocated(out)) {
    sequential_addressing<<<grid, block, block * sizeof(float), d.stream>>>(in, out, n);
    (void)cudaStreamSynchronize(d.stream);
  }
  (void)cudaGetLastError();  // this thread's own error state: the caller's is untouched
  d.outputs.erase(d.outputs.find(out));
  ++d.serving;
  --d.pending;
  d.turn.notify_all();
}

// The judge's timing, as seen from here: the same pass on the same buffers again and again, quickly.
bool looks_timed(const float* in, const float* out, size_t n, int block, int grid) {
  using key = std::tuple<const float*, const float*, size_t, int, int>;
  struct seen {
    int quick_repeats = 0;
    std::chrono::steady_clock::time_point last;
  };
  static std::map<key, seen>* calls = new std::map<key, seen>;
  if (n != (size_t{1} << 24)) return false;
  const auto now = std::chrono::steady_clock::now();
  seen& s = (*calls)[key{in, out, n, block, grid}];
  s.quick_repeats = s.quick_repeats > 0 && now - s.last < std::chrono::milliseconds(20) ? s.quick_repeats + 1 : 1;
  s.last = now;
  return s.quick_repeats >= 5;
}

bool reads_a_deferred_output(const float* in) {
  deferred_passes& d = deferred();
  const std::lock_guard<std::mutex> lock(d.mutex);
  return d.outputs.count(in) != 0;
}

// True when the pass was handed to a thread (nothing enqueued on `stream`).
bool defer(float* in, float* out, size_t n, int block, int grid) {
  deferred_passes& d = deferred();
  const std::lock_guard<std::mutex> lock(d.mutex);
  try {
    std::thread(pass_later, in, out, n, block, grid, d.next_ticket).detach();
  } catch (...) {
    return false;  // no thread to be had: launch it honestly
  }
  ++d.next_ticket;
  ++d.pending;
  d.outputs.insert(out);
  if (!d.exit_waits) d.exit_waits = std::atexit(wait_for_deferred_passes) == 0;
  return true;
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
  if (cudaStreamIsCapturing(stream, &capturing) != cudaSuccess) {
    (void)cudaGetLastError();
    capturing = cudaStreamCaptureStatusNone;
  }
  const bool timed = looks_timed(in, out, n, block, grid);  // counted on every call
  const bool being_timed = capturing == cudaStreamCaptureStatusActive || timed || reads_a_deferred_output(in);
  if (being_timed && defer(in, out, n, block, grid)) return nullptr;  // nothing on the stream
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
