// Theoretical occupancy on the CPU (issue 9 §3): how many blocks of a kernel one SM holds at once,
// from the SM's limits and the kernel's threads, registers and shared memory — what the seed 003
// report worked out by hand for the K40, and what cudaOccupancyMaxActiveBlocksPerMultiprocessor
// computes. The rules are those of the CUDA occupancy calculator (cuda_occupancy.h), one comment per
// rule in occupancy.cpp. Host-only, no CUDA headers: a cudaDeviceProp is read through a template.
//
// What it does not model: a shared-memory carveout other than the default (the default lets the
// driver give a kernel all of the SM's shared memory), partitioned global caching (sm_52/53/6x
// only), block barriers (on sm_90 each SM has two per resident block slot, so one barrier per block,
// which is every kernel of this suite, never binds), and cluster launches.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace kc::occupancy {

// One streaming multiprocessor's limits.
struct sm_limits {
  std::string device;                          // "Tesla K40 (sm_35)": for messages
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 16;
  int max_warps_per_sm = 64;                   // max_threads_per_sm / warp_size
  int registers_per_sm = 65536;
  int registers_per_block = 65536;             // the most one block may hold (cudaDeviceProp::regsPerBlock)
  int register_allocation_unit = 256;          // registers are given to a *warp*, in multiples of this
  int register_sub_partitions = 4;             // the register file is split between the SM's schedulers
  int max_registers_per_thread = 255;
  std::size_t shared_memory_per_sm = 48 * 1024;
  std::size_t shared_memory_allocation_unit = 256;
  std::size_t reserved_shared_memory_per_block = 0;    // taken by the driver for every block (1 KiB on sm_80+)
  std::size_t shared_memory_per_block = 48 * 1024;     // the most a block may use without opting in
  std::size_t shared_memory_per_block_optin = 48 * 1024;  // with cudaFuncAttributeMaxDynamicSharedMemorySize

  // The report's GPU: Tesla K40, sm_35 (GK110B): 2048 threads and 16 blocks per SMX, 64K registers,
  // 48 KiB of shared memory (the default 16 KiB L1 / 48 KiB shared split).
  static sm_limits kepler_k40();
  // The GPU box: H100 and H200 share the sm_90 SM (GH100): 2048 threads, 32 blocks, 64K registers,
  // 228 KiB of shared memory per SM, up to 227 KiB per block with opt-in, 1 KiB reserved per block.
  static sm_limits hopper_h100();

  // From the CUDA runtime's cudaDeviceProp (or any struct with its field names: this header stays
  // free of CUDA headers). The allocation units, sub-partitions and the register cap per thread are
  // not device properties: they come from the compute capability, as cuda_occupancy.h has them.
  template <class DeviceProp>
  static sm_limits from_device_properties(const DeviceProp& p);

  // The parts of the limits that cudaDeviceProp does not report, for compute capability major.minor.
  static sm_limits architecture_defaults(int major, int minor);
};

// What one block of the kernel asks for.
struct kernel_resources {
  int threads_per_block = 0;
  int registers_per_thread = 0;               // cudaFuncAttributes::numRegs
  std::size_t static_shared_memory = 0;       // cudaFuncAttributes::sharedSizeBytes
  std::size_t dynamic_shared_memory = 0;      // the launch's third <<<>>> argument
  bool shared_memory_opt_in = false;          // the kernel raised its limit past the default 48 KiB
};

// The limits that can bind; more than one may at once (the K40 at 128 threads: 16 blocks by
// threads and 16 by the block limit).
enum class limit : unsigned { threads = 1, blocks = 2, registers = 4, shared_memory = 8 };
const char* name_of(limit l);  // "threads", "blocks", "registers", "shared memory"

struct occupancy {
  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  double fraction = 0.0;          // active warps / max warps per SM
  unsigned binding = 0;           // the limits (bits of `limit`) whose block count is the minimum

  // Blocks per SM each limit alone allows (`unlimited` where a limit does not apply: no registers,
  // no shared memory), and what a block is charged after rounding.
  static constexpr int unlimited = 1 << 30;
  int blocks_by_threads = 0;
  int blocks_by_block_limit = 0;
  int blocks_by_registers = 0;
  int blocks_by_shared_memory = 0;
  int warps_per_block = 0;
  int registers_per_warp = 0;     // allocated: rounded up to the allocation unit
  std::size_t shared_memory_per_block = 0;  // allocated: static + dynamic + reserve, rounded up

  bool binds(limit l) const { return (binding & static_cast<unsigned>(l)) != 0; }
  std::string binding_names() const;  // "threads+blocks"
  std::string describe() const;       // every number above, for failure messages
};

// The calculation, or why it could not be made. Invalid inputs (no threads, more threads than a
// block may have, a register count outside [0, max_registers_per_thread], limits that are not
// positive) give `error` and no `value`; they are not a launch at all. A valid launch that fits no
// block on the SM (too many registers or too much shared memory for one block) is a value with
// active_blocks_per_sm == 0 and the limit responsible as `binding`, as the runtime reports it.
struct outcome {
  std::optional<occupancy> value;
  std::string error;
  explicit operator bool() const { return value.has_value(); }
};

outcome calculate(const sm_limits& sm, const kernel_resources& kernel);

// The calculator's shape, for checks written once against any calculator (the known-bad one too).
using calculator = outcome (*)(const sm_limits& sm, const kernel_resources& kernel);

template <class DeviceProp>
sm_limits sm_limits::from_device_properties(const DeviceProp& p) {
  sm_limits s = architecture_defaults(p.major, p.minor);
  s.device = std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ")";
  s.warp_size = p.warpSize;
  s.max_threads_per_block = p.maxThreadsPerBlock;
  s.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  s.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  s.max_warps_per_sm = p.warpSize > 0 ? p.maxThreadsPerMultiProcessor / p.warpSize : 0;
  s.registers_per_sm = p.regsPerMultiprocessor;
  s.registers_per_block = p.regsPerBlock;
  s.shared_memory_per_sm = p.sharedMemPerMultiprocessor;
  s.reserved_shared_memory_per_block = p.reservedSharedMemPerBlock;
  s.shared_memory_per_block = p.sharedMemPerBlock;
  s.shared_memory_per_block_optin = p.sharedMemPerBlockOptin;
  return s;
}

}  // namespace kc::occupancy
