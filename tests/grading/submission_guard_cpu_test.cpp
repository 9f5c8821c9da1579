// The in-process memory guard (grading/submission_guard.cpp) on its refusal path, which never reaches
// the driver: linked here with the same --wrap flags scripts/grade.sh gives a submission, so each
// wrapped route is tested as a submission would call it. An admitted request would go on to the CUDA
// runtime (and, without a GPU, fail there), so only requests past the limit are made.
#include <cuda_runtime.h>  // make_cudaExtent, cudaCreateChannelDesc<T>
#include <gtest/gtest.h>

#include <cstddef>

extern "C" unsigned long kc_grader_memory_refusals(size_t* largest_refused, size_t* held, size_t* limit);

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

}  // namespace
