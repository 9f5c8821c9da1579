// The occupancy calculator: the rules of cuda_occupancy.h (CUDA 13), which is what the runtime's
// cudaOccupancyMaxActiveBlocksPerMultiprocessor follows, restated for the limits of sm_limits.
#include "reference/occupancy.hpp"

#include <algorithm>
#include <sstream>

namespace kc::occupancy {
namespace {

std::size_t round_up(std::size_t x, std::size_t unit) { return unit == 0 ? x : (x + unit - 1) / unit * unit; }
int divide_round_up(int x, int y) { return (x + y - 1) / y; }

std::string check_inputs(const sm_limits& sm, const kernel_resources& k) {
  std::ostringstream why;
  if (sm.warp_size <= 0 || sm.max_threads_per_block <= 0 || sm.max_warps_per_sm <= 0 || sm.max_blocks_per_sm <= 0 ||
      sm.registers_per_sm <= 0 || sm.registers_per_block <= 0 || sm.register_sub_partitions <= 0 ||
      sm.shared_memory_per_sm == 0)
    why << "the SM limits of " << (sm.device.empty() ? "this device" : sm.device)
        << " are not all positive (warp size, threads per block, warps, blocks, registers, shared memory)";
  else if (k.threads_per_block < 1)
    why << "a block of " << k.threads_per_block << " threads launches nothing: threads per block must be >= 1";
  else if (k.threads_per_block > sm.max_threads_per_block)
    why << "a block of " << k.threads_per_block << " threads exceeds " << sm.device << "'s limit of "
        << sm.max_threads_per_block << " threads per block";
  else if (k.registers_per_thread < 0 || k.registers_per_thread > sm.max_registers_per_thread)
    why << k.registers_per_thread << " registers per thread: a kernel uses 0 to " << sm.max_registers_per_thread
        << " on " << sm.device;
  return why.str();
}

}  // namespace

sm_limits sm_limits::architecture_defaults(int major, int minor) {
  sm_limits s;
  s.device = "sm_" + std::to_string(major) + std::to_string(minor);
  // Registers go to warps in units of 256 on every GPU from Kepler to Blackwell; the file is split
  // between 4 schedulers (GP100, sm_60, has 2).
  s.register_allocation_unit = 256;
  s.register_sub_partitions = major == 6 && minor == 0 ? 2 : 4;
  s.max_registers_per_thread = 255;
  // Shared memory is allocated in units of 256 bytes up to Volta/Turing, 128 from Ampere on.
  s.shared_memory_allocation_unit = major >= 8 ? 128 : 256;
  return s;
}

sm_limits sm_limits::kepler_k40() {
  sm_limits s = architecture_defaults(3, 5);
  s.device = "Tesla K40 (sm_35)";
  s.max_threads_per_sm = 2048;
  s.max_blocks_per_sm = 16;
  s.max_warps_per_sm = 2048 / 32;
  s.registers_per_sm = 65536;
  s.registers_per_block = 65536;
  s.shared_memory_per_sm = 48 * 1024;
  s.reserved_shared_memory_per_block = 0;
  s.shared_memory_per_block = 48 * 1024;
  s.shared_memory_per_block_optin = 48 * 1024;
  return s;
}

sm_limits sm_limits::hopper_h100() {
  sm_limits s = architecture_defaults(9, 0);
  s.device = "H100/H200 (sm_90)";
  s.max_threads_per_sm = 2048;
  s.max_blocks_per_sm = 32;
  s.max_warps_per_sm = 2048 / 32;
  s.registers_per_sm = 65536;
  s.registers_per_block = 65536;
  s.shared_memory_per_sm = 228 * 1024;
  s.reserved_shared_memory_per_block = 1024;
  s.shared_memory_per_block = 48 * 1024;
  s.shared_memory_per_block_optin = 227 * 1024;
  return s;
}

const char* name_of(limit l) {
  switch (l) {
    case limit::threads: return "threads";
    case limit::blocks: return "blocks";
    case limit::registers: return "registers";
    case limit::shared_memory: return "shared memory";
  }
  return "?";
}

std::string occupancy::binding_names() const {
  std::string names;
  for (const limit l : {limit::threads, limit::blocks, limit::registers, limit::shared_memory})
    if (binds(l)) names += (names.empty() ? "" : "+") + std::string(name_of(l));
  return names;
}

std::string occupancy::describe() const {
  std::ostringstream out;
  const auto count = [](int blocks) { return blocks == unlimited ? std::string("no limit") : std::to_string(blocks); };
  out << active_blocks_per_sm << " blocks/SM (" << active_warps_per_sm << " warps, " << fraction * 100.0
      << "% occupancy), bound by " << binding_names() << "; blocks allowed by threads " << count(blocks_by_threads)
      << ", by the block limit " << count(blocks_by_block_limit) << ", by registers " << count(blocks_by_registers)
      << ", by shared memory " << count(blocks_by_shared_memory) << "; a block is " << warps_per_block << " warp(s), "
      << registers_per_warp << " registers per warp and " << shared_memory_per_block << " bytes of shared memory as allocated";
  return out.str();
}

outcome calculate(const sm_limits& sm, const kernel_resources& k) {
  if (std::string why = check_inputs(sm, k); !why.empty()) return {std::nullopt, std::move(why)};
  occupancy o;

  // Threads: an SM schedules whole warps, so a block of 16 threads costs a warp slot like one of 32.
  // The block count is the SM's warp slots over the block's warps, rounded down.
  o.warps_per_block = divide_round_up(k.threads_per_block, sm.warp_size);
  o.blocks_by_threads = sm.max_warps_per_sm / o.warps_per_block;

  // Blocks: the SM holds at most max_blocks_per_sm blocks, however small (the K40 table's point:
  // 16 blocks of 32 threads fill a quarter of the 64 warp slots).
  o.blocks_by_block_limit = sm.max_blocks_per_sm;

  // Registers: allocated per warp, registers per thread × warp size rounded up to the allocation
  // unit (40 registers: 1280 per warp, 1280 already a multiple of 256; 33: 1056 -> 1280). The
  // register file is split evenly between the sub-partitions and a warp's registers come from one of
  // them, so an SM holds (registers_per_sm / sub-partitions / registers per warp) warps per
  // sub-partition, times the sub-partitions, and the blocks are those warps over the block's warps.
  // A block whose registers exceed registers_per_block cannot launch (0 blocks); that check rounds
  // the block's warps up to a multiple of the sub-partitions, as the hardware's check does.
  o.registers_per_warp = static_cast<int>(
      round_up(static_cast<std::size_t>(k.registers_per_thread) * sm.warp_size, sm.register_allocation_unit));
  const long long registers_per_block = static_cast<long long>(o.registers_per_warp) * o.warps_per_block;
  const long long registers_per_block_checked =
      static_cast<long long>(o.registers_per_warp) *
      static_cast<long long>(round_up(o.warps_per_block, sm.register_sub_partitions));
  if (registers_per_block > sm.registers_per_block || registers_per_block_checked > sm.registers_per_block)
    o.blocks_by_registers = 0;
  else if (o.registers_per_warp == 0)
    o.blocks_by_registers = occupancy::unlimited;
  else {
    const int warps_per_sub_partition = sm.registers_per_sm / sm.register_sub_partitions / o.registers_per_warp;
    o.blocks_by_registers = warps_per_sub_partition * sm.register_sub_partitions / o.warps_per_block;
  }

  // Shared memory: static + dynamic + the driver's reserve per block (1 KiB on sm_80+), rounded up to
  // the allocation unit. A block may not exceed the per-block limit (48 KiB, or the opt-in limit),
  // which counts the reserve too; otherwise the SM's shared memory over the block's, rounded down.
  // The default carveout lets the driver give the kernel the whole shared_memory_per_sm.
  o.shared_memory_per_block = round_up(k.static_shared_memory + k.dynamic_shared_memory + sm.reserved_shared_memory_per_block,
                                       sm.shared_memory_allocation_unit);
  const std::size_t block_ceiling =
      (k.shared_memory_opt_in ? sm.shared_memory_per_block_optin : sm.shared_memory_per_block) +
      sm.reserved_shared_memory_per_block;
  if (o.shared_memory_per_block > block_ceiling)
    o.blocks_by_shared_memory = 0;
  else if (o.shared_memory_per_block == 0)
    o.blocks_by_shared_memory = occupancy::unlimited;
  else
    o.blocks_by_shared_memory = static_cast<int>(std::min<std::size_t>(sm.shared_memory_per_sm / o.shared_memory_per_block,
                                                                       occupancy::unlimited));

  // The SM holds the fewest blocks any limit allows; every limit at that minimum binds.
  o.active_blocks_per_sm =
      std::min({o.blocks_by_threads, o.blocks_by_block_limit, o.blocks_by_registers, o.blocks_by_shared_memory});
  const auto mark = [&](int blocks, limit l) {
    if (blocks == o.active_blocks_per_sm) o.binding |= static_cast<unsigned>(l);
  };
  mark(o.blocks_by_threads, limit::threads);
  mark(o.blocks_by_block_limit, limit::blocks);
  mark(o.blocks_by_registers, limit::registers);
  mark(o.blocks_by_shared_memory, limit::shared_memory);

  // Occupancy: resident warps over the SM's warp slots.
  o.active_warps_per_sm = o.active_blocks_per_sm * o.warps_per_block;
  o.fraction = static_cast<double>(o.active_warps_per_sm) / sm.max_warps_per_sm;
  return {o, {}};
}

}  // namespace kc::occupancy
