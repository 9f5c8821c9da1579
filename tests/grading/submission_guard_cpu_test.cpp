// The in-process guard (grading/submission_guard.cpp), linked here with the same --wrap flags
// scripts/grade.sh gives a submission, so each wrapped route is tested as a submission would call it.
// Memory: the refusal path, which never reaches the driver. An admitted request would go on to the
// CUDA runtime (and, without a GPU, fail there), so only requests past the limit are made. Launches:
// every launch entry point notes its kernel before the runtime sees the call (which refuses a host
// function's address as a kernel, with a GPU or without).
#include <cuda_runtime.h>  // make_cudaExtent, cudaCreateChannelDesc<T>
#include <gtest/gtest.h>

#include <cstddef>

extern "C" unsigned long kc_grader_memory_refusals(size_t* largest_refused, size_t* held, size_t* limit);
extern "C" size_t kc_grader_launched_kernels(const void** kernels, size_t capacity, unsigned long long* launches,
                                             int* more);
// Declared by cuda_runtime_api.h only when compiled for the per-thread default stream.
extern "C" cudaError_t cudaLaunchKernel_ptsz(const void* function, dim3 grid, dim3 block, void** args, size_t shared,
                                             cudaStream_t stream);
extern "C" cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* function, void** args);
extern "C" cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* function, dim3 grid, dim3 block, void** args,
                                                        size_t shared, cudaStream_t stream);

namespace {

constexpr size_t gib = size_t{1} << 30;

// Refusals since the last read, and the largest size refused.
std::pair<unsigned long, size_t> refusals() {
  size_t largest = 0, held = 0, limit = 0;
  const unsigned long count = kc_grader_memory_refusals(&largest, &held, &limit);
  return {count, largest};
}

TEST(SubmissionGuard, EveryRuntimeRouteToDeviceMemoryIsHeldToTheLimit) {
  refusals();  // start from zero
  void* pointer = nullptr;
  EXPECT_EQ(cudaMalloc(&pointer, 8 * gib), cudaErrorMemoryAllocation);
  cudaPitchedPtr pitched{};
  EXPECT_EQ(cudaMalloc3D(&pitched, make_cudaExtent(size_t{1} << 20, 1024, 8)), cudaErrorMemoryAllocation);  // 8 GiB
  EXPECT_EQ(cudaMallocFromPoolAsync(&pointer, 8 * gib, nullptr, nullptr), cudaErrorMemoryAllocation);
  cudaArray_t array = nullptr;
  const cudaChannelFormatDesc floats = cudaCreateChannelDesc<float>();
  EXPECT_EQ(cudaMallocArray(&array, &floats, 65536, 32768), cudaErrorMemoryAllocation);  // 8 GiB of floats
  EXPECT_EQ(cudaMalloc3DArray(&array, &floats, make_cudaExtent(2048, 2048, 512)), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 * gib), cudaErrorMemoryAllocation);
  const auto [count, largest] = refusals();
  EXPECT_EQ(count, 6u) << "each route past the limit is refused and counted";
  EXPECT_GE(largest, 8 * gib);
  EXPECT_EQ(refusals().first, 0u) << "reading the count resets it";
}

// Host functions standing in for kernels: the runtime refuses them, after the wrapper noted them.
void first_stand_in() {}
void second_stand_in() {}
void third_stand_in() {}

TEST(SubmissionGuard, EveryLaunchEntryPointNotesItsKernel) {
  (void)kc_grader_launched_kernels(nullptr, 0, nullptr, nullptr);  // start from nothing
  const void* first = reinterpret_cast<const void*>(&first_stand_in);
  const void* second = reinterpret_cast<const void*>(&second_stand_in);
  const void* third = reinterpret_cast<const void*>(&third_stand_in);
  EXPECT_NE(cudaLaunchKernel(first, dim3(1), dim3(1), nullptr, 0, nullptr), cudaSuccess);
  EXPECT_NE(cudaLaunchKernel_ptsz(first, dim3(1), dim3(1), nullptr, 0, nullptr), cudaSuccess);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1);
  config.blockDim = dim3(1);
  EXPECT_NE(cudaLaunchKernelExC(&config, second, nullptr), cudaSuccess);
  EXPECT_NE(cudaLaunchKernelExC_ptsz(&config, second, nullptr), cudaSuccess);
  EXPECT_NE(cudaLaunchCooperativeKernel(third, dim3(1), dim3(1), nullptr, 0, nullptr), cudaSuccess);
  EXPECT_NE(cudaLaunchCooperativeKernel_ptsz(third, dim3(1), dim3(1), nullptr, 0, nullptr), cudaSuccess);
  (void)cudaGetLastError();
  const void* kernels[4] = {};
  unsigned long long launches = 0;
  int more = -1;
  EXPECT_EQ(kc_grader_launched_kernels(kernels, 4, &launches, &more), 3u);
  EXPECT_EQ(launches, 6u);
  EXPECT_EQ(more, 0);
  EXPECT_EQ(kernels[0], first);
  EXPECT_EQ(kernels[1], second);
  EXPECT_EQ(kernels[2], third);
  EXPECT_EQ(kc_grader_launched_kernels(kernels, 4, &launches, &more), 0u) << "reading the record starts it over";
  EXPECT_EQ(launches, 0u);
}

}  // namespace
