#include "kernels/launch.hpp"

#include <map>
#include <mutex>

namespace kc {

launch_status launch_status::failed(cudaError_t error, const std::string& what) {
  return launch_status(kind::failed, what + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
}

launch_status launch_status::after_launch(const char* kernel_name) {
  const cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) return ok();
  return failed(error, std::string("launch of ") + kernel_name + " failed");
}

namespace {
device_limits query(int device) {
  device_limits limits;
  const auto attribute = [device](cudaDeviceAttr attr) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) (void)cudaGetLastError();
    return value;
  };
  limits.max_threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock);
  limits.max_block_dim_xy = attribute(cudaDevAttrMaxBlockDimX);
  limits.max_grid_x = attribute(cudaDevAttrMaxGridDimX);
  limits.max_grid_yz = attribute(cudaDevAttrMaxGridDimY);
  limits.shared_memory_per_block = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlock));
  limits.shared_memory_per_block_optin = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  limits.multiprocessors = attribute(cudaDevAttrMultiProcessorCount);
  limits.max_threads_per_multiprocessor = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
  limits.warp_size = attribute(cudaDevAttrWarpSize);
  return limits;
}
}  // namespace

const device_limits& device_limits::of_current_device() {
  static std::mutex mutex;
  static std::map<int, device_limits> cache;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) (void)cudaGetLastError();
  const std::lock_guard lock(mutex);
  auto found = cache.find(device);
  if (found == cache.end()) found = cache.emplace(device, query(device)).first;
  return found->second;
}

device_limits device_limits::hopper_h100() {
  device_limits limits;
  limits.shared_memory_per_block_optin = 227 * 1024;
  limits.multiprocessors = 132;
  return limits;
}

std::string block_1d_problem(int block, const device_limits& limits) {
  if (block < 1)
    return "block " + std::to_string(block) + " has no threads; use 1 to " + std::to_string(limits.max_threads_per_block);
  if (block > limits.max_threads_per_block || block > limits.max_block_dim_xy)
    return "block " + std::to_string(block) + " exceeds this device's " + std::to_string(limits.max_threads_per_block) +
           " threads per block";
  return {};
}

}  // namespace kc
