// CPU tests of the occupancy calculator (reference/occupancy.hpp, issue 9 §3): the seed 003
// report's K40 table, and the known-bad calculator that ignores the blocks-per-SM limit failing it
// (issue 9 §6); register- and shared-memory-limited launches on the H100/H200 worked by hand; the
// binding limit; invalid inputs. The GPU test (occupancy_gpu_test.cpp) holds the same calculator
// to cudaOccupancyMaxActiveBlocksPerMultiprocessor for every kernel the suite launches.
#include "reference/known_bad/occupancy_ignores_block_limit.hpp"
#include "reference/occupancy.hpp"

#include <cuda_occupancy.h>  // the toolkit's own calculator, header-only host code
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>

namespace kc::occupancy {
namespace {

// "Trivial" resources for the table: 16 registers (16·32 = 512 per warp; 16384 per sub-partition
// holds 32 warps, 128 per SMX: never the limit) and no shared memory (no limit on the K40, which
// reserves none).
kernel_resources trivial_block(int threads) { return {threads, 16, 0, 0}; }

struct k40_row {
  int threads;
  double occupancy;  // the report's table
};
// The report's theoretical-occupancy table (KERNELS.md §4): 2048 threads (64 warps) and 16 blocks
// per SMX. 32 threads: 16 blocks × 1 warp = 16 of 64 warps; 64: 16 × 2 = 32 of 64; from 128 on the
// 64 warp slots fill before the 16-block limit (128: 16 × 4 = 64).
constexpr k40_row k40_table[] = {{32, 0.25}, {64, 0.50}, {128, 1.0}, {256, 1.0}, {512, 1.0}, {1024, 1.0}};

// The check, written once against any calculator: every row of the K40 table, exactly (the
// fractions are k/64, exact in double). Says which row disagrees and why.
::testing::AssertionResult matches_k40_table(calculator calculate_occupancy) {
  const sm_limits k40 = sm_limits::kepler_k40();
  for (const k40_row& row : k40_table) {
    const outcome o = calculate_occupancy(k40, trivial_block(row.threads));
    if (!o) return ::testing::AssertionFailure() << "K40, " << row.threads << " threads per block: refused: " << o.error;
    if (o.value->fraction != row.occupancy)
      return ::testing::AssertionFailure() << "K40, " << row.threads << " threads per block: " << o.value->fraction * 100
                                           << "% where the report's table has " << row.occupancy * 100 << "%: "
                                           << o.value->describe();
  }
  return ::testing::AssertionSuccess();
}

TEST(OccupancyK40Table, CalculatorMatchesTheReport) { EXPECT_TRUE(matches_k40_table(calculate)); }

// The known-bad row of issue 9 §6: counting warp slots alone puts 64 blocks of 32 threads on an
// SMX (100%, not 25%). The table check must reject it, at the first row.
TEST(OccupancyK40Table, KnownBadIgnoringBlocksPerSmIsRejected) {
  const ::testing::AssertionResult verdict = matches_k40_table(known_bad::calculate_ignoring_blocks_per_sm);
  EXPECT_FALSE(verdict) << "the calculator that ignores the blocks-per-SM limit passed the K40 table";
  EXPECT_NE(std::string(verdict.message()).find("32 threads per block: 100%"), std::string::npos) << verdict.message();
}

class K40Row : public ::testing::TestWithParam<k40_row> {};

// Each row with its blocks and warps, and what binds: the block limit below 128 threads, both at
// 128, the warp slots above.
TEST_P(K40Row, BlocksWarpsAndBindingLimit) {
  const k40_row row = GetParam();
  const outcome o = calculate(sm_limits::kepler_k40(), trivial_block(row.threads));
  ASSERT_TRUE(o) << o.error;
  const int warps_per_block = row.threads / 32;
  const int blocks = std::min(16, 64 / warps_per_block);
  EXPECT_EQ(o.value->active_blocks_per_sm, blocks) << o.value->describe();
  EXPECT_EQ(o.value->active_warps_per_sm, blocks * warps_per_block) << o.value->describe();
  EXPECT_EQ(o.value->fraction, row.occupancy) << o.value->describe();
  EXPECT_EQ(o.value->binds(limit::blocks), row.threads <= 128) << o.value->describe();
  EXPECT_EQ(o.value->binds(limit::threads), row.threads >= 128) << o.value->describe();
  EXPECT_FALSE(o.value->binds(limit::registers)) << o.value->describe();
  EXPECT_FALSE(o.value->binds(limit::shared_memory)) << o.value->describe();
}

INSTANTIATE_TEST_SUITE_P(Occupancy, K40Row, ::testing::ValuesIn(k40_table),
                         [](const ::testing::TestParamInfo<k40_row>& info) { return "Threads" + std::to_string(info.param.threads); });

// ---- H100/H200 (sm_90): 64 warp slots, 32 blocks, 65536 registers in 4 sub-partitions of 16384,
// allocated per warp in units of 256; 233472 bytes (228 KiB) of shared memory, in units of 128, with
// 1024 reserved per block; 48 KiB per block (227 KiB with opt-in). ----

occupancy h100(kernel_resources k) {
  const outcome o = calculate(sm_limits::hopper_h100(), k);
  if (!o) throw std::runtime_error(o.error);
  return *o.value;
}

TEST(OccupancyH100, RegisterLimited) {
  // 256 threads = 8 warps, 64 registers: 64·32 = 2048 per warp; 16384 / 2048 = 8 warps per
  // sub-partition, 32 per SM; 32 / 8 = 4 blocks (threads alone allow 64 / 8 = 8; shared memory,
  // the 1 KiB reserve alone, 233472 / 1024 = 228). 4 × 8 = 32 warps of 64: 50%.
  const occupancy o = h100({256, 64, 0, 0});
  EXPECT_EQ(o.registers_per_warp, 2048);
  EXPECT_EQ(o.blocks_by_registers, 4);
  EXPECT_EQ(o.blocks_by_threads, 8);
  EXPECT_EQ(o.blocks_by_shared_memory, 228);
  EXPECT_EQ(o.active_blocks_per_sm, 4);
  EXPECT_EQ(o.active_warps_per_sm, 32);
  EXPECT_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.binding_names(), "registers");
}

TEST(OccupancyH100, RegistersRoundUpPerWarp) {
  // 128 threads = 4 warps, 33 registers: 33·32 = 1056 per warp, rounded up to 1280 (5 × 256);
  // 16384 / 1280 = 12.8 -> 12 warps per sub-partition, 48 per SM; 48 / 4 = 12 blocks (75%).
  // Unrounded, 65536 / 1056 = 62 warps would give 15 blocks.
  const occupancy o = h100({128, 33, 0, 0});
  EXPECT_EQ(o.registers_per_warp, 1280);
  EXPECT_EQ(o.active_blocks_per_sm, 12);
  EXPECT_EQ(o.active_warps_per_sm, 48);
  EXPECT_EQ(o.fraction, 0.75);
  EXPECT_EQ(o.binding_names(), "registers");
}

TEST(OccupancyH100, RegistersComeFromOneSubPartitionPerWarp) {
  // 96 threads = 3 warps, 40 registers: 1280 per warp; 12 warps per sub-partition, 48 per SM,
  // 48 / 3 = 16 blocks. Counting the register file as one pool, 65536 / 1280 = 51 warps would give
  // 17 blocks: the sub-partitions cost a block here. Threads allow 64 / 3 = 21.
  const occupancy o = h100({96, 40, 0, 0});
  EXPECT_EQ(o.blocks_by_threads, 21);
  EXPECT_EQ(o.blocks_by_registers, 16);
  EXPECT_EQ(o.active_blocks_per_sm, 16);
  EXPECT_EQ(o.active_warps_per_sm, 48);
  EXPECT_EQ(o.binding_names(), "registers");
}

TEST(OccupancyH100, TooManyRegistersForOneBlock) {
  // 1024 threads = 32 warps, 72 registers: 2304 per warp, 73728 per block > 65536 per block: the
  // launch fails, so no block fits (the runtime reports 0, not an error).
  const occupancy o = h100({1024, 72, 0, 0});
  EXPECT_EQ(o.blocks_by_registers, 0);
  EXPECT_EQ(o.active_blocks_per_sm, 0);
  EXPECT_EQ(o.fraction, 0.0);
  EXPECT_EQ(o.binding_names(), "registers");
}

TEST(OccupancyH100, SharedMemoryLimited) {
  // 128 threads, 16 registers, 20000 bytes of static shared memory: 20000 + 1024 reserved = 21024,
  // rounded up to 128: 165 × 128 = 21120; 233472 / 21120 = 11.05 -> 11 blocks (threads allow 16,
  // registers 32 per sub-partition × 4 / 4 = 32). 11 × 4 = 44 warps: 68.75%.
  const occupancy o = h100({128, 16, 20000, 0});
  EXPECT_EQ(o.shared_memory_per_block, 21120u);
  EXPECT_EQ(o.blocks_by_shared_memory, 11);
  EXPECT_EQ(o.blocks_by_threads, 16);
  EXPECT_EQ(o.blocks_by_registers, 32);
  EXPECT_EQ(o.active_blocks_per_sm, 11);
  EXPECT_EQ(o.active_warps_per_sm, 44);
  EXPECT_EQ(o.fraction, 0.6875);
  EXPECT_EQ(o.binding_names(), "shared memory");
}

TEST(OccupancyH100, DynamicSharedMemoryAndThePerBlockLimit) {
  // 256 threads, 48 KiB dynamic: 49152 + 1024 = 50176 = 392 × 128, exactly the per-block limit of
  // 48 KiB + the reserve; 233472 / 50176 = 4.65 -> 4 blocks, 32 warps (50%).
  const occupancy at_limit = h100({256, 16, 0, 49152});
  EXPECT_EQ(at_limit.shared_memory_per_block, 50176u);
  EXPECT_EQ(at_limit.active_blocks_per_sm, 4);
  EXPECT_EQ(at_limit.fraction, 0.5);
  EXPECT_EQ(at_limit.binding_names(), "shared memory");
  // One byte more does not fit a block without opting in (0 blocks) ...
  const occupancy past = h100({256, 16, 0, 49153});
  EXPECT_EQ(past.active_blocks_per_sm, 0);
  EXPECT_EQ(past.binding_names(), "shared memory");
  // ... and with opt-in (227 KiB) it does: 50177 -> 50304, 233472 / 50304 = 4.64 -> 4 blocks.
  const occupancy opted_in = h100({256, 16, 0, 49153, true});
  EXPECT_EQ(opted_in.shared_memory_per_block, 50304u);
  EXPECT_EQ(opted_in.active_blocks_per_sm, 4);
}

TEST(OccupancyH100, BindingLimitReported) {
  // 32 threads, 16 registers: 64 blocks by threads, 32 by the block limit: the block limit binds
  // alone (32 warps, 50%).
  const occupancy small = h100({32, 16, 0, 0});
  EXPECT_EQ(small.active_blocks_per_sm, 32);
  EXPECT_TRUE(small.binds(limit::blocks));
  EXPECT_FALSE(small.binds(limit::threads));
  EXPECT_EQ(small.fraction, 0.5);
  // 1024 threads: 2 blocks by threads, the rest more: threads bind alone (100%).
  const occupancy large = h100({1024, 16, 0, 0});
  EXPECT_EQ(large.active_blocks_per_sm, 2);
  EXPECT_EQ(large.binding_names(), "threads");
  EXPECT_EQ(large.fraction, 1.0);
  // 64 threads: 32 blocks by threads and by the block limit: both bind.
  EXPECT_EQ(h100({64, 16, 0, 0}).binding_names(), "threads+blocks");
}

TEST(OccupancyH100, PartialWarpCostsAWholeWarp) {
  // 16 threads (a 4 × 4 matmul block) take a warp slot: 32 blocks (the block limit), 32 warps, 50%
  // — not 16 × 32 = 512 threads' worth, 25%.
  const occupancy o = h100({16, 16, 0, 0});
  EXPECT_EQ(o.warps_per_block, 1);
  EXPECT_EQ(o.active_warps_per_sm, 32);
  EXPECT_EQ(o.fraction, 0.5);
}

TEST(OccupancyH100, KnownBadDiffersOnlyWhereTheBlockLimitBinds) {
  // Same answer where the block limit does not bind (256 threads: threads bind) ...
  const sm_limits sm = sm_limits::hopper_h100();
  EXPECT_EQ(known_bad::calculate_ignoring_blocks_per_sm(sm, {256, 16, 0, 0}).value->active_blocks_per_sm, 8);
  // ... and 64 blocks of 32 threads where it does (the hardware holds 32).
  EXPECT_EQ(known_bad::calculate_ignoring_blocks_per_sm(sm, {32, 16, 0, 0}).value->active_blocks_per_sm, 64);
}

// ---- invalid inputs: an error, no value ----

TEST(OccupancyInputs, ZeroThreadsRefused) {
  const outcome o = calculate(sm_limits::hopper_h100(), {0, 16, 0, 0});
  EXPECT_FALSE(o);
  EXPECT_NE(o.error.find("threads per block must be >= 1"), std::string::npos) << o.error;
}

TEST(OccupancyInputs, MoreThreadsThanABlockMayHaveRefused) {
  const outcome o = calculate(sm_limits::kepler_k40(), {1025, 16, 0, 0});
  EXPECT_FALSE(o);
  EXPECT_NE(o.error.find("exceeds Tesla K40 (sm_35)'s limit of 1024 threads per block"), std::string::npos) << o.error;
}

TEST(OccupancyInputs, RegisterCountOutOfRangeRefused) {
  EXPECT_FALSE(calculate(sm_limits::hopper_h100(), {128, -1, 0, 0}));
  const outcome o = calculate(sm_limits::hopper_h100(), {128, 256, 0, 0});
  EXPECT_FALSE(o);
  EXPECT_NE(o.error.find("0 to 255"), std::string::npos) << o.error;
}

TEST(OccupancyInputs, NonPositiveLimitsRefused) {
  sm_limits broken = sm_limits::hopper_h100();
  broken.warp_size = 0;
  EXPECT_FALSE(calculate(broken, {128, 16, 0, 0}));
}

// ---- limits from a cudaDeviceProp: a stand-in with the runtime's field names and an H100's values
// (this test runs without CUDA; the GPU test reads the real one) ----

struct h100_device_prop {
  char name[256] = {};
  int major = 9, minor = 0, warpSize = 32, maxThreadsPerBlock = 1024, maxThreadsPerMultiProcessor = 2048,
      maxBlocksPerMultiProcessor = 32, regsPerMultiprocessor = 65536, regsPerBlock = 65536;
  std::size_t sharedMemPerMultiprocessor = 233472, reservedSharedMemPerBlock = 1024, sharedMemPerBlock = 49152,
              sharedMemPerBlockOptin = 232448;
};

TEST(OccupancyLimits, FromDevicePropertiesMatchesTheNamedH100) {
  h100_device_prop p;
  std::strcpy(p.name, "NVIDIA H100 80GB HBM3");
  const sm_limits read = sm_limits::from_device_properties(p);
  const sm_limits named = sm_limits::hopper_h100();
  EXPECT_EQ(read.device, "NVIDIA H100 80GB HBM3 (sm_90)");
  EXPECT_EQ(read.max_threads_per_sm, named.max_threads_per_sm);
  EXPECT_EQ(read.max_blocks_per_sm, named.max_blocks_per_sm);
  EXPECT_EQ(read.max_warps_per_sm, named.max_warps_per_sm);
  EXPECT_EQ(read.registers_per_sm, named.registers_per_sm);
  EXPECT_EQ(read.registers_per_block, named.registers_per_block);
  EXPECT_EQ(read.register_allocation_unit, named.register_allocation_unit);
  EXPECT_EQ(read.register_sub_partitions, named.register_sub_partitions);
  EXPECT_EQ(read.shared_memory_per_sm, named.shared_memory_per_sm);
  EXPECT_EQ(read.shared_memory_allocation_unit, named.shared_memory_allocation_unit);
  EXPECT_EQ(read.reserved_shared_memory_per_block, named.reserved_shared_memory_per_block);
  EXPECT_EQ(read.shared_memory_per_block, named.shared_memory_per_block);
  EXPECT_EQ(read.shared_memory_per_block_optin, named.shared_memory_per_block_optin);
}

TEST(OccupancyLimits, ArchitectureDefaults) {
  EXPECT_EQ(sm_limits::architecture_defaults(3, 5).shared_memory_allocation_unit, 256u);
  EXPECT_EQ(sm_limits::architecture_defaults(9, 0).shared_memory_allocation_unit, 128u);
  EXPECT_EQ(sm_limits::architecture_defaults(6, 0).register_sub_partitions, 2);
  EXPECT_EQ(sm_limits::architecture_defaults(9, 0).register_sub_partitions, 4);
}

// ---- the toolkit's calculator (cuda_occupancy.h: host code, no GPU), which the runtime's
// cudaOccupancyMaxActiveBlocksPerMultiprocessor follows: same blocks and same binding limits over
// a grid of launches on the K40 and the H100 (the GPU test compares with the runtime itself) ----

unsigned toolkit_binding(unsigned factors) {
  return ((factors & OCC_LIMIT_WARPS) ? static_cast<unsigned>(limit::threads) : 0u) |
         ((factors & OCC_LIMIT_BLOCKS) ? static_cast<unsigned>(limit::blocks) : 0u) |
         ((factors & OCC_LIMIT_REGISTERS) ? static_cast<unsigned>(limit::registers) : 0u) |
         ((factors & OCC_LIMIT_SHARED_MEMORY) ? static_cast<unsigned>(limit::shared_memory) : 0u);
}

void expect_agrees_with_toolkit(const sm_limits& sm, int major, int minor) {
  cudaOccDeviceProp device;
  device.computeMajor = major;
  device.computeMinor = minor;
  device.maxThreadsPerBlock = sm.max_threads_per_block;
  device.maxThreadsPerMultiprocessor = sm.max_threads_per_sm;
  device.regsPerBlock = sm.registers_per_block;
  device.regsPerMultiprocessor = sm.registers_per_sm;
  device.warpSize = sm.warp_size;
  device.sharedMemPerBlock = sm.shared_memory_per_block;
  device.sharedMemPerMultiprocessor = sm.shared_memory_per_sm;
  device.sharedMemPerBlockOptin = sm.shared_memory_per_block_optin;
  device.reservedSharedMemPerBlock = sm.reserved_shared_memory_per_block;
  device.numSms = 1;
  const cudaOccDeviceState state;  // default carveout and cache preference
  int compared = 0, differing = 0;
  // Every block size to 64 threads (partial warps), then every 7th; every register count; shared
  // memory from none to past the 48 KiB per-block limit, split between static and dynamic.
  for (int threads = 1; threads <= sm.max_threads_per_block; threads += threads < 64 ? 1 : 7)
    for (int registers = 0; registers <= sm.max_registers_per_thread; ++registers)
      for (const std::size_t shared : {0, 100, 4096, 20000, 49152, 49153})
        for (const bool opt_in : {false, true}) {
          cudaOccFuncAttributes function;
          function.maxThreadsPerBlock = sm.max_threads_per_block;
          function.numRegs = registers;
          function.sharedSizeBytes = shared / 2;
          function.shmemLimitConfig = opt_in ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
          function.maxDynamicSharedSizeBytes =
              (opt_in ? sm.shared_memory_per_block_optin : sm.shared_memory_per_block) - function.sharedSizeBytes;
          cudaOccResult toolkit;
          ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&toolkit, &device, &function, &state, threads, shared - shared / 2),
                    CUDA_OCC_SUCCESS);
          const outcome ours = calculate(sm, {threads, registers, shared / 2, shared - shared / 2, opt_in});
          ASSERT_TRUE(ours) << ours.error;
          ++compared;
          if (ours.value->active_blocks_per_sm != toolkit.activeBlocksPerMultiprocessor ||
              ours.value->binding != toolkit_binding(toolkit.limitingFactors)) {
            if (++differing <= 5)
              ADD_FAILURE() << sm.device << ", " << threads << " threads, " << registers << " registers, " << shared
                            << " B shared" << (opt_in ? " (opt-in)" : "") << ": cuda_occupancy.h says "
                            << toolkit.activeBlocksPerMultiprocessor << " blocks, the calculator " << ours.value->describe();
          }
        }
  EXPECT_EQ(differing, 0) << "of " << compared << " launches";
}

TEST(OccupancyToolkit, AgreesWithCudaOccupancyHeaderOnK40) { expect_agrees_with_toolkit(sm_limits::kepler_k40(), 3, 5); }
TEST(OccupancyToolkit, AgreesWithCudaOccupancyHeaderOnH100) { expect_agrees_with_toolkit(sm_limits::hopper_h100(), 9, 0); }

}  // namespace
}  // namespace kc::occupancy
