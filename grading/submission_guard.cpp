// Linked into every submission's library by scripts/grade.sh, which wraps the submission's device
// allocations with the linker (--wrap=cudaMalloc, ...): the device memory one grading process lets a
// submission hold at once. Grading processes share a GPU (several per GPU, and a batch's students
// side by side); without a limit, one submission that takes all the device memory leaves the others
// unable even to create a CUDA context (measured: every matmul case of every other student in that
// batch failed with "could not open device 0: cudaErrorMemoryAllocation").
//
// An allocation that would pass the limit (KCONFORM_SUBMISSION_MEMORY_LIMIT_MIB, default 4096 MiB;
// the suite's largest inputs need far less of the submission's own) is refused as the runtime would
// refuse it — cudaErrorMemoryAllocation — and counted; the grading program reads the count after
// every case (kc_grader_memory_refusals) and fails a case in which one happened, saying what was
// asked for. Only the entry point below is exported; the wrappers are hidden in the library.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

extern "C" {
cudaError_t __real_cudaMalloc(void** pointer, size_t bytes);
cudaError_t __real_cudaMallocManaged(void** pointer, size_t bytes, unsigned int flags);
cudaError_t __real_cudaMallocAsync(void** pointer, size_t bytes, cudaStream_t stream);
cudaError_t __real_cudaMallocPitch(void** pointer, size_t* pitch, size_t width, size_t height);
cudaError_t __real_cudaFree(void* pointer);
cudaError_t __real_cudaFreeAsync(void* pointer, cudaStream_t stream);
}

namespace {

struct ledger {
  std::mutex mutex;
  std::unordered_map<void*, size_t> live;
  size_t held = 0;
  unsigned long refusals = 0;
  size_t largest_refused = 0;
};

ledger& book() {
  static ledger* l = new ledger;  // never destroyed: frees may come during static destruction
  return *l;
}

size_t limit_bytes() {
  static const size_t limit = [] {
    const char* text = std::getenv("KCONFORM_SUBMISSION_MEMORY_LIMIT_MIB");
    const long mib = text != nullptr && std::atol(text) > 0 ? std::atol(text) : 4096;
    return static_cast<size_t>(mib) << 20;
  }();
  return limit;
}

bool admit(size_t bytes) {
  ledger& l = book();
  const std::lock_guard<std::mutex> lock(l.mutex);
  if (bytes <= limit_bytes() && l.held <= limit_bytes() - bytes) return true;
  ++l.refusals;
  l.largest_refused = std::max(l.largest_refused, bytes);
  return false;
}

cudaError_t booked(cudaError_t status, void* pointer, size_t bytes) {
  if (status != cudaSuccess || pointer == nullptr) return status;
  ledger& l = book();
  const std::lock_guard<std::mutex> lock(l.mutex);
  l.live[pointer] = bytes;
  l.held += bytes;
  return status;
}

void release(void* pointer) {
  ledger& l = book();
  const std::lock_guard<std::mutex> lock(l.mutex);
  if (const auto found = l.live.find(pointer); found != l.live.end()) {
    l.held -= found->second;
    l.live.erase(found);
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMalloc(void** pointer, size_t bytes) {
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  return booked(__real_cudaMalloc(pointer, bytes), pointer != nullptr ? *pointer : nullptr, bytes);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMallocManaged(void** pointer, size_t bytes, unsigned int flags) {
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  return booked(__real_cudaMallocManaged(pointer, bytes, flags), pointer != nullptr ? *pointer : nullptr, bytes);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMallocAsync(void** pointer, size_t bytes, cudaStream_t stream) {
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  return booked(__real_cudaMallocAsync(pointer, bytes, stream), pointer != nullptr ? *pointer : nullptr, bytes);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMallocPitch(void** pointer, size_t* pitch, size_t width,
                                                                          size_t height) {
  // The pitch is at most width rounded up to the device's alignment (512 bytes here): admit the worst.
  const size_t bytes = (width + 512) * height;
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  return booked(__real_cudaMallocPitch(pointer, pitch, width, height), pointer != nullptr ? *pointer : nullptr, bytes);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaFree(void* pointer) {
  release(pointer);
  return __real_cudaFree(pointer);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaFreeAsync(void* pointer, cudaStream_t stream) {
  release(pointer);
  return __real_cudaFreeAsync(pointer, stream);
}

// Refusals since the last call (then reset), with the largest size refused and what was held.
__attribute__((visibility("default"))) unsigned long kc_grader_memory_refusals(size_t* largest_refused, size_t* held,
                                                                              size_t* limit) {
  ledger& l = book();
  const std::lock_guard<std::mutex> lock(l.mutex);
  const unsigned long count = l.refusals;
  *largest_refused = l.largest_refused;
  *held = l.held;
  *limit = limit_bytes();
  l.refusals = 0;
  l.largest_refused = 0;
  return count;
}
}
