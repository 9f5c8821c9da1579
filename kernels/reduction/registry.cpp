// The reduction registry: one row per variant. Tests, sanitizer runs and benchmarks are all
// instantiated from these tables — adding a row (a new technique, or a student's kernel) is all
// it takes for a variant to get the whole suite.
#include "kernels/reduction/pass_kernels.hpp"

#include <array>

namespace kc::reduction {
namespace {

using namespace detail;

constexpr block_rule power_of_two_blocks{32, 1024, true, 1};
constexpr block_rule whole_warps{32, 1024, false, 32};

constexpr pass_kernel one_per_thread(pass_launch_fn launch) { return {1, grid_policy::one_block_per_chunk, false, power_of_two_blocks, launch}; }
constexpr pass_kernel two_per_thread(pass_launch_fn launch) { return {2, grid_policy::one_block_per_chunk, false, power_of_two_blocks, launch}; }
constexpr pass_kernel in_place(pass_launch_fn launch) { return {2, grid_policy::one_block_per_chunk, true, power_of_two_blocks, launch}; }

const std::array correct{
    variant{"InterleavedDivergent", "K1", "000", "interleaved addressing, tid % (2s) == 0 (divergent)", {}, caught_by::value_checks,
            one_per_thread(launch_interleaved_divergent)},
    variant{"InterleavedStrided", "K2", "000", "interleaved addressing, index = 2·s·tid (bank conflicts)", {}, caught_by::value_checks,
            one_per_thread(launch_interleaved_strided)},
    variant{"SequentialAddressing", "K3", "000", "sequential addressing, tid < s (conflict-free)", {}, caught_by::value_checks,
            one_per_thread(launch_sequential_addressing)},
    variant{"FirstAddDuringLoad", "K4", "000", "first add during the global load (2 per thread)", {}, caught_by::value_checks,
            two_per_thread(launch_first_add_during_load)},
    variant{"UnrolledLastWarp", "K5", "000", "K4 + last warp unrolled with __syncwarp()", {}, caught_by::value_checks,
            two_per_thread(launch_unrolled_last_warp)},
    variant{"CompleteUnroll", "K6", "beyond 000", "complete unroll, block size a template parameter", {}, caught_by::value_checks,
            two_per_thread(launch_complete_unroll)},
    variant{"GridStrideUnroll", "K7", "beyond 000", "K6 + many elements per thread (grid-stride loop)", {}, caught_by::value_checks,
            pass_kernel{2, grid_policy::grid_stride, false, power_of_two_blocks, launch_grid_stride_unroll}},
    variant{"WarpShuffle", "Shuffle", "beyond 000", "float4 grid-stride loads + warp shuffles", {}, caught_by::value_checks,
            pass_kernel{4, grid_policy::grid_stride, false, whole_warps, launch_warp_shuffle}},
    variant{"GlobalInterleaved", "Str2", "001", "in place in global memory, interleaved (guard added)", {}, caught_by::value_checks,
            in_place(launch_global_interleaved)},
    variant{"GlobalSequential", "Str3", "001", "in place in global memory, sequential (guard added)", {}, caught_by::value_checks,
            in_place(launch_global_sequential)},
    variant{"CubDeviceReduce", "CUB", "beyond 000", "cub::DeviceReduce::Sum (CUDA Toolkit)", {}, caught_by::value_checks,
            pass_kernel{}, cub_reduce, cub_scratch},
};

const std::array known_bad{
    variant{"Str2AsWritten", "Str2", "001", "seed 001 sumKernelStr2 exactly as written",
            "no threadIdx.x % odstep guard: every thread adds every step (double counting, reads into the next block, races)",
            caught_by::value_checks, in_place(launch_str2_as_written)},
    variant{"Str3AsWritten", "Str3", "001", "seed 001 sumKernelStr3 exactly as written",
            "no threadIdx.x < odstep guard: the upper half writes cells the lower half reads in the same step",
            caught_by::value_checks, in_place(launch_str3_as_written)},
    variant{"VolatileWarpUnroll", "K5", "000", "K5 with a bare volatile last warp",
            "no __syncwarp() between the last warp's steps: a race under independent thread scheduling (Volta+)",
            caught_by::racecheck, pass_kernel{2, grid_policy::one_block_per_chunk, false, block_rule{64, 1024, true, 1},
                                              launch_volatile_warp_unroll}},
    variant{"SequentialTidLeS", "K3", "000", "K3 with if (tid <= s)",
            "off by one: thread s also adds, racing with thread 0 and counting partial[s] twice",
            caught_by::value_checks, one_per_thread(launch_sequential_tid_le_s)},
    variant{"UnguardedSecondLoad", "K4", "000", "K4 reading g[i + blockDim] with no bounds check",
            "reads past the end of the input unless n is a multiple of 2·blockDim",
            caught_by::value_checks, two_per_thread(launch_unguarded_second_load)},
    variant{"WrongFinalBuffer", "K3", "000", "multi-pass driver reading the result from the wrong ping-pong buffer",
            "the final value is read from the buffer the last pass did not write",
            caught_by::value_checks, one_per_thread(launch_sequential_addressing), run_multipass_wrong_final_buffer},
    // Issue 6: each of these passed every check before the check that now catches it (issue6_rows.cu).
    variant{"IgnoresStream", "K3", "000", "K3 launched on the default stream",
            "ignores the stream it is given: runs before the caller's input copy on that stream has landed",
            caught_by::value_checks, one_per_thread(launch_sequential_default_stream)},
    variant{"ZeroesInput", "K3", "000", "K3 that zeroes each input element after loading it",
            "writes into an input its registry row declares preserved (destroys_input = false)",
            caught_by::value_checks, one_per_thread(launch_sequential_zeroes_input)},
    variant{"AtomicFloatIndexGuard", "Atomic", "beyond 000", "atomicAdd n -> 1 with the bounds check float(i) < float(n)",
            "drops the last elements when n > 2^24 is not a float (n = 2^26 + 1 loses 3)",
            caught_by::value_checks, pass_kernel{}, atomic_float_index_guard, atomic_scratch, atomic_summation_depth},
    variant{"CarryIntoNextChunk", "K3", "000", "K3 in place, storing its sum at the head of the next block's chunk",
            "a race between blocks through global memory: right while both blocks are resident at once, wrong on "
            "some runs once the grid runs in many waves; no sanitizer sees it",
            caught_by::value_checks,
            pass_kernel{1, grid_policy::one_block_per_chunk, true, power_of_two_blocks, launch_sequential_carry_into_next_chunk}},
    variant{"ReadsPastEndDiscarded", "K3", "000", "K3 whose threads past n load in[n] and discard it",
            "reads one element past the end of the input (the value is unused, so only memcheck sees it)",
            caught_by::memcheck, one_per_thread(launch_sequential_reads_past_end)},
    variant{"SkipsEqualWrite", "K3", "000", "K3 that writes its output only if it changed",
            "reads output memory nobody wrote (initcheck; poison hides it from the value checks)",
            caught_by::initcheck, one_per_thread(launch_sequential_skips_equal_write)},
};

}  // namespace

std::span<const variant> correct_variants() { return correct; }
std::span<const variant> known_bad_variants() { return known_bad; }

const variant* find_variant(std::string_view name) { return find_row(correct_variants(), known_bad_variants(), name); }

}  // namespace kc::reduction
