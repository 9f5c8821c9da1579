// A kernel as the occupancy check sees it (issue 9 §3): the __global__ function itself, for
// cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor, with the block and the
// dynamic shared memory its launcher gives it. Each family maps a (variant, launch configuration)
// of its registry to one (kernel_handle_of in its header); the launchers stay the only way to run
// a kernel.
#pragma once

#include <cstddef>
#include <string>

namespace kc {

struct kernel_handle {
  std::string kernel;                    // the __global__ function: "sequential_addressing", "shared_tiled<16>"
  const void* function = nullptr;        // nullptr: none (a library that picks its own kernels)
  int block_threads = 0;                 // threads per block (x·y·z)
  std::size_t dynamic_shared_bytes = 0;  // the launch's dynamic shared memory

  explicit operator bool() const { return function != nullptr; }
};

}  // namespace kc
