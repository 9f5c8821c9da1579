// The library peer: cub::DeviceReduce::Sum from the CUDA Toolkit (CCCL). Scratch holds the result
// in element 0 and CUB's temporary storage from element 64 on (256-byte aligned, as CUB wants).
#include "kernels/reduction/pass_kernels.hpp"

#include <cub/device/device_reduce.cuh>

#include <cstdint>

namespace kc::reduction::detail {
namespace {
constexpr std::size_t temp_offset_elements = 64;

std::size_t temp_bytes(std::size_t n, cudaError_t& status) {
  std::size_t bytes = 0;
  status = cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr),
                                  static_cast<std::int64_t>(n));
  return bytes;
}
}  // namespace

std::size_t cub_scratch(const variant&, std::size_t n, const reduce_config&) {
  cudaError_t status = cudaSuccess;
  const std::size_t bytes = temp_bytes(n, status);
  return temp_offset_elements + (bytes + sizeof(float) - 1) / sizeof(float);
}

reduce_outcome cub_reduce(const variant& v, float* a, std::size_t n, float* scratch, std::size_t scratch_elements,
                          const reduce_config& config, cudaStream_t stream, const pass_observer*) {
  reduce_outcome outcome;
  if (n == 0) {
    outcome.status = launch_status::refused("n = 0: there is nothing to reduce (n must be >= 1)");
    return outcome;
  }
  if (config.block != 0 || config.grid != 0) {
    outcome.status = launch_status::refused("CUB chooses its own block and grid: leave block and grid at 0");
    return outcome;
  }
  const std::size_t needed = cub_scratch(v, n, config);
  if (scratch_elements < needed) {
    outcome.status = launch_status::refused("scratch holds " + std::to_string(scratch_elements) +
                                            " floats; cub::DeviceReduce::Sum needs " + std::to_string(needed));
    return outcome;
  }
  std::size_t bytes = (scratch_elements - temp_offset_elements) * sizeof(float);
  const cudaError_t status = cub::DeviceReduce::Sum(scratch + temp_offset_elements, bytes, a, scratch,
                                                    static_cast<std::int64_t>(n), stream);
  outcome.status = status == cudaSuccess ? launch_status::after_launch("cub::DeviceReduce::Sum")
                                         : launch_status::failed(status, "cub::DeviceReduce::Sum");
  outcome.result = scratch;
  return outcome;
}

}  // namespace kc::reduction::detail
