// What every host launcher returns, and the device limits it validates against.
//
// A launcher validates its configuration first and *refuses* a config it cannot run, with a message
// a student can act on; it never throws, exits or synchronises. After the launch it checks
// cudaGetLastError() (a launch that the runtime rejected is "failed", not "ok"). Whether the kernel
// then ran correctly, or faulted, is for the caller to find out when it synchronises.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace kc {

class launch_status {
 public:
  enum class kind { ok, refused, failed };

  static launch_status ok() { return launch_status(kind::ok, {}); }
  // The configuration cannot be run by this kernel; nothing was launched.
  static launch_status refused(std::string reason) { return launch_status(kind::refused, std::move(reason)); }
  // The runtime rejected the launch (or a call around it).
  static launch_status failed(cudaError_t error, const std::string& what);
  // The status of the launch just made: ok, or failed with cudaGetLastError()'s error.
  static launch_status after_launch(const char* kernel_name);

  bool is_ok() const noexcept { return kind_ == kind::ok; }
  explicit operator bool() const noexcept { return is_ok(); }
  kind what() const noexcept { return kind_; }
  const std::string& message() const noexcept { return message_; }

 private:
  launch_status(kind k, std::string message) : kind_(k), message_(std::move(message)) {}
  kind kind_;
  std::string message_;
};

// The limits a launcher checks a configuration against. Queried once per device; CPU tests build
// one by hand (hopper_h100()) so validation can be tested without a GPU.
struct device_limits {
  int max_threads_per_block = 1024;
  int max_block_dim_xy = 1024;
  int max_grid_x = 2147483647;
  int max_grid_yz = 65535;
  std::size_t shared_memory_per_block = 48 * 1024;        // without opting in
  std::size_t shared_memory_per_block_optin = 48 * 1024;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
  int multiprocessors = 1;
  int max_threads_per_multiprocessor = 2048;
  int warp_size = 32;

  // Cached per device; cudaGetDevice() selects which.
  static const device_limits& of_current_device();
  // An H100 SXM's limits (the GPU box), for tests that run without a GPU.
  static device_limits hopper_h100();
};

// Why a 1-D block of `block` threads cannot run on a device with `limits` ("block 0 has no threads;
// use 1 to 1024", "block 2048 exceeds this device's 1024 threads per block"); "" when it can. Every
// launcher with a 1-D block refuses with this, prefixed by what it is ("mean block ...").
std::string block_1d_problem(int block, const device_limits& limits);

}  // namespace kc
