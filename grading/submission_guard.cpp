// Linked into every submission's library by scripts/grade.sh, which wraps the submission's calls to
// the CUDA runtime listed in submission_guard_calls.txt with the linker (--wrap=cudaMalloc, ...: a call
// the submission's own code makes goes to __wrap_cudaMalloc below, which calls the runtime's as
// __real_cudaMalloc). The library is linked that way once, so the wrappers hold however the grading
// program loads it (dlopen, RTLD_LOCAL) and need nothing exported from the grading program. Two things
// are kept here and read by the grading program through the library's two exports.
//
// 1. The device memory one grading process lets a submission hold at once. Grading processes share a
// GPU (several per GPU, and a batch's students side by side); without a limit, one submission that
// takes all the device memory leaves the others unable even to create a CUDA context (measured: every
// matmul case of every other student in that batch failed with "could not open device 0:
// cudaErrorMemoryAllocation").
//
// An allocation that would pass the limit (KCONFORM_SUBMISSION_MEMORY_LIMIT_MIB, default 4096 MiB;
// the suite's largest inputs need far less of the submission's own) is refused as the runtime would
// refuse it — cudaErrorMemoryAllocation — and counted; the grading program reads the count after
// every case (kc_grader_memory_refusals) and fails a case in which one happened, saying what was
// asked for.
//
// 2. The kernels the submission launches (launch_record.hpp), through every host launch entry point of
// the runtime: cudaLaunchKernel (what a triple-chevron launch compiled with __NV_LEGACY_LAUNCH and the
// cudaLaunchKernel template call), __cudaLaunchKernel (what CUDA 13's triple-chevron launch calls, by
// the handle __cudaGetKernel gave), cudaLaunchKernelExC (under the cudaLaunchKernelEx template),
// cudaLaunchCooperativeKernel, and the per-thread-default-stream (_ptsz) form of each. The grading
// program reads them after calling the submission (kc_grader_launched_kernels): the occupancy family
// checks that kc_vector_add_kernel() is the kernel kc_vector_add launched. Kernels added to a CUDA
// graph by hand (cudaGraphAddKernelNode) or launched through the driver API, or through a runtime
// symbol looked up with dlsym, are not seen.
//
// Only the two entry points at the end are exported; the wrappers are hidden in the library. Being
// linked into the submission's own library, the exports are callable from the student's file, and
// the linker's __real_<call> names reach the runtime past the guard: scripts/grade.sh reads the
// student's object on its own and zeroes a submission that names kc_grader_*, __real_* or __wrap_*
// (as one that names the suite's kc:: symbols; tests/submissions/occupancy/clears_launch_record.cu),
// and a graded case fails where the exports cannot be found (a hidden redeclaration hides them).
#include "launch_record.hpp"

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
// The other routes to device memory in the runtime API (issue 19: a neighbour that hoarded through
// cudaMalloc3D and a memory pool of its own starved other students' cases until the runner's outside
// watch killed it); each is held to the same limit.
cudaError_t __real_cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent);
cudaError_t __real_cudaMallocFromPoolAsync(void** pointer, size_t bytes, cudaMemPool_t pool, cudaStream_t stream);
cudaError_t __real_cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                                   unsigned int flags);
cudaError_t __real_cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                     unsigned int flags);
cudaError_t __real_cudaFreeArray(cudaArray_t array);
cudaError_t __real_cudaDeviceSetLimit(cudaLimit limit, size_t value);

// The launch entry points (crt/host_runtime.h, crt/device_functions.h, cuda_runtime_api.h).
cudaError_t __real___cudaGetKernel(cudaKernel_t* kernel, const void* function);
cudaError_t __real_cudaGetKernel(cudaKernel_t* kernel, const void* function);
cudaError_t __real___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                      cudaStream_t stream);
cudaError_t __real___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                           cudaStream_t stream);
cudaError_t __real_cudaLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t shared,
                                    cudaStream_t stream);
cudaError_t __real_cudaLaunchKernel_ptsz(const void* function, dim3 grid, dim3 block, void** args, size_t shared,
                                         cudaStream_t stream);
cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* function, void** args);
cudaError_t __real_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* function, void** args);
cudaError_t __real_cudaLaunchCooperativeKernel(const void* function, dim3 grid, dim3 block, void** args, size_t shared,
                                               cudaStream_t stream);
cudaError_t __real_cudaLaunchCooperativeKernel_ptsz(const void* function, dim3 grid, dim3 block, void** args,
                                                    size_t shared, cudaStream_t stream);
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

// A reservation the runtime holds for the device (not a pointer the submission frees): within the
// limit on its own, counted as a refusal otherwise.
bool admit_reservation(size_t bytes) {
  ledger& l = book();
  const std::lock_guard<std::mutex> lock(l.mutex);
  if (bytes <= limit_bytes()) return true;
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

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent) {
  // Rows padded to the pitch (at most the width plus the device's alignment, 512 bytes): the worst.
  const size_t bytes = (extent.width + 512) * std::max<size_t>(extent.height, 1) * std::max<size_t>(extent.depth, 1);
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  const cudaError_t status = __real_cudaMalloc3D(pitched, extent);
  return booked(status, pitched != nullptr ? pitched->ptr : nullptr, bytes);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMallocFromPoolAsync(void** pointer, size_t bytes,
                                                                                 cudaMemPool_t pool, cudaStream_t stream) {
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  return booked(__real_cudaMallocFromPoolAsync(pointer, bytes, pool, stream), pointer != nullptr ? *pointer : nullptr,
                bytes);
}

namespace {
size_t element_bytes(const cudaChannelFormatDesc* desc) {
  if (desc == nullptr) return 16;  // the widest element: the runtime will refuse it anyway
  const int bits = desc->x + desc->y + desc->z + desc->w;
  return static_cast<size_t>(std::max(bits, 8) + 7) / 8;
}
}  // namespace

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                                                                          size_t width, size_t height, unsigned int flags) {
  const size_t bytes = element_bytes(desc) * std::max<size_t>(width, 1) * std::max<size_t>(height, 1);
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  const cudaError_t status = __real_cudaMallocArray(array, desc, width, height, flags);
  return booked(status, array != nullptr ? static_cast<void*>(*array) : nullptr, bytes);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaMalloc3DArray(cudaArray_t* array,
                                                                            const cudaChannelFormatDesc* desc,
                                                                            cudaExtent extent, unsigned int flags) {
  const size_t bytes = element_bytes(desc) * std::max<size_t>(extent.width, 1) * std::max<size_t>(extent.height, 1) *
                       std::max<size_t>(extent.depth, 1);
  if (!admit(bytes)) return cudaErrorMemoryAllocation;
  const cudaError_t status = __real_cudaMalloc3DArray(array, desc, extent, flags);
  return booked(status, array != nullptr ? static_cast<void*>(*array) : nullptr, bytes);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaFreeArray(cudaArray_t array) {
  release(static_cast<void*>(array));
  return __real_cudaFreeArray(array);
}

// The device-side malloc heap and the per-thread stack are reserved for the whole device when set: a
// heap past the limit, or a stack whose reservation for every resident thread is, is refused.
__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  size_t reserved = 0;
  if (limit == cudaLimitMallocHeapSize) reserved = value;
  if (limit == cudaLimitStackSize) {
    int device = 0, sms = 0, threads = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    reserved = value * static_cast<size_t>(std::max(sms, 1)) * static_cast<size_t>(std::max(threads, 1));
  }
  if (reserved > 0 && !admit_reservation(reserved)) return cudaErrorMemoryAllocation;
  return __real_cudaDeviceSetLimit(limit, value);
}

}  // extern "C"

namespace {
kconform_guard::launch_record& launches() {
  static kconform_guard::launch_record* r = new kconform_guard::launch_record;  // never destroyed, as the ledger
  return *r;
}
}  // namespace

extern "C" {

// ---- the kernels launched: noted before the runtime sees the launch, so a launch it refuses counts ----

__attribute__((visibility("hidden"))) cudaError_t __wrap___cudaGetKernel(cudaKernel_t* kernel, const void* function) {
  const cudaError_t status = __real___cudaGetKernel(kernel, function);
  if (status == cudaSuccess && kernel != nullptr) launches().name_handle(*kernel, function);
  return status;
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaGetKernel(cudaKernel_t* kernel, const void* function) {
  const cudaError_t status = __real_cudaGetKernel(kernel, function);
  if (status == cudaSuccess && kernel != nullptr) launches().name_handle(*kernel, function);
  return status;
}

__attribute__((visibility("hidden"))) cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                                             void** args, size_t shared,
                                                                             cudaStream_t stream) {
  launches().launched(kernel);
  return __real___cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid,
                                                                                  dim3 block, void** args,
                                                                                  size_t shared, cudaStream_t stream) {
  launches().launched(kernel);
  return __real___cudaLaunchKernel_ptsz(kernel, grid, block, args, shared, stream);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaLaunchKernel(const void* function, dim3 grid, dim3 block,
                                                                           void** args, size_t shared,
                                                                           cudaStream_t stream) {
  launches().launched(function);
  return __real_cudaLaunchKernel(function, grid, block, args, shared, stream);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaLaunchKernel_ptsz(const void* function, dim3 grid,
                                                                                dim3 block, void** args, size_t shared,
                                                                                cudaStream_t stream) {
  launches().launched(function);
  return __real_cudaLaunchKernel_ptsz(function, grid, block, args, shared, stream);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config,
                                                                              const void* function, void** args) {
  launches().launched(function);
  return __real_cudaLaunchKernelExC(config, function, args);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config,
                                                                                   const void* function, void** args) {
  launches().launched(function);
  return __real_cudaLaunchKernelExC_ptsz(config, function, args);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaLaunchCooperativeKernel(const void* function, dim3 grid,
                                                                                      dim3 block, void** args,
                                                                                      size_t shared,
                                                                                      cudaStream_t stream) {
  launches().launched(function);
  return __real_cudaLaunchCooperativeKernel(function, grid, block, args, shared, stream);
}

__attribute__((visibility("hidden"))) cudaError_t __wrap_cudaLaunchCooperativeKernel_ptsz(const void* function,
                                                                                           dim3 grid, dim3 block,
                                                                                           void** args, size_t shared,
                                                                                           cudaStream_t stream) {
  launches().launched(function);
  return __real_cudaLaunchCooperativeKernel_ptsz(function, grid, block, args, shared, stream);
}

// The distinct kernels launched since the last call (then reset), first launched first: up to
// `capacity` written to `kernels`, the count returned (more than `capacity` when more were launched),
// the launch calls in *launches, and *more = 1 when more kernels were launched than the record lists.
__attribute__((visibility("default"))) size_t kc_grader_launched_kernels(const void** kernels, size_t capacity,
                                                                       unsigned long long* launched, int* more) {
  const kconform_guard::launch_record::taken t = launches().take(kernels, capacity);
  if (launched != nullptr) *launched = t.launches;
  if (more != nullptr) *more = t.more ? 1 : 0;
  return t.listed;
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
