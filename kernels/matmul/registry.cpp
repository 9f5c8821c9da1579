// The matmul registry: one row per variant, with the launch configurations the suite sweeps for
// each (block sides 4, 8, 16, 32; TILE_WIDTH 1 ... 64 where the technique is valid).
#include "kernels/matmul/kernels.hpp"

#include <algorithm>
#include <array>

namespace kc::matmul {
namespace {

using namespace detail;

constexpr int block_sides[] = {4, 8, 16, 32};
constexpr int tile_widths[] = {1, 2, 4, 8, 16, 32, 64};

int largest_extent(const shape& s) { return std::max(s.m, s.n); }

// MM1: every block side that covers C with one block.
std::vector<matmul_config> single_block_configs(const shape& s) {
  std::vector<matmul_config> configs;
  for (const int side : block_sides)
    if (side >= largest_extent(s)) configs.push_back({side, 1});
  return configs;
}

// MM2: for each block side, the smallest TILE_WIDTH that covers C, and the next one up (a patch
// grid larger than C exercises the bounds checks).
std::vector<matmul_config> single_block_patch_configs(const shape& s) {
  std::vector<matmul_config> configs;
  for (const int side : block_sides) {
    int taken = 0;
    for (const int tw : tile_widths)
      if (side * tw >= largest_extent(s) && taken < 2) {
        configs.push_back({side, tw});
        ++taken;
      }
  }
  return configs;
}

std::vector<matmul_config> one_output_per_thread_configs(const shape&) {
  std::vector<matmul_config> configs;
  for (const int side : block_sides) configs.push_back({side, 1});
  return configs;
}

// MM4: every side × TILE_WIDTH whose block patch is at most twice the largest extent (larger
// ones only add idle threads).
std::vector<matmul_config> patch_per_thread_configs(const shape& s) {
  std::vector<matmul_config> configs;
  for (const int side : block_sides)
    for (const int tw : tile_widths)
      if (side * tw <= 2 * std::max(largest_extent(s), 4)) configs.push_back({side, tw});
  return configs;
}

std::vector<matmul_config> shared_tiled_configs(const shape&) { return {{8, 8}, {16, 16}, {32, 32}}; }
std::vector<matmul_config> library_configs(const shape&) { return {{0, 0}}; }

// Known-bad configurations: the report's launches, and tile widths that do not fit n.
std::vector<matmul_config> report_mm1_config(const shape&) { return {{32, 1}}; }
std::vector<matmul_config> tile_too_small(const shape& s) {
  std::vector<matmul_config> configs;
  for (const int tw : tile_widths)
    if (32 * tw < s.n) configs = {{32, tw}};  // the largest that still falls short
  return configs;
}
std::vector<matmul_config> tile_too_large(const shape& s) {
  for (const int tw : tile_widths)
    if (32 * tw > s.n) return {{32, tw}};  // the smallest that overshoots
  return {};
}
std::vector<matmul_config> report_mm4_configs(const shape&) {
  return {{4, 16}, {4, 8}, {32, 16}, {16, 16}, {32, 8}, {8, 4}, {8, 16}, {8, 8}};
}
std::vector<matmul_config> tile16_config(const shape&) { return {{16, 16}}; }
std::vector<matmul_config> block16_config(const shape&) { return {{16, 1}}; }

const std::array correct{
    variant{"SingleBlock", "MM1", "one block, one output per thread", {}, caught_by::value_checks, validate_single_block,
            launch_single_block, single_block_configs},
    variant{"SingleBlockPatch", "MM2", "one block, a TILE_WIDTH x TILE_WIDTH patch per thread", {}, caught_by::value_checks,
            validate_single_block_patch, launch_single_block_patch, single_block_patch_configs},
    variant{"OneOutputPerThread", "MM3", "many blocks, one output per thread", {}, caught_by::value_checks,
            validate_one_output_per_thread, launch_one_output_per_thread, one_output_per_thread_configs},
    variant{"PatchPerThread", "MM4", "many blocks, a TILE_WIDTH x TILE_WIDTH patch per thread", {}, caught_by::value_checks,
            validate_patch_per_thread, launch_patch_per_thread, patch_per_thread_configs},
    variant{"SharedTiled", "MMs", "shared-memory tiles of TILE_WIDTH x TILE_WIDTH", {}, caught_by::value_checks,
            validate_shared_tiled, launch_shared_tiled, shared_tiled_configs},
    variant{"CublasRowMajor", "MMc", "cublasSgemm computing C^T = B^T A^T on row-major data", {}, caught_by::value_checks,
            validate_cublas, launch_cublas_row_major, library_configs},
};

const std::array known_bad{
    variant{"MM1AsWritten", "MM1", "seed 002 MM1 as written, one 32x32 block",
            "no bounds check: right only for n = 32", caught_by::value_checks, validate_as_written_square,
            launch_mm1_as_written, report_mm1_config},
    variant{"MM2AsWrittenTileTooSmall", "MM2", "seed 002 MM2 as written, TILE_WIDTH too small for n",
            "32 x TILE_WIDTH < n: the outputs past the patches are never written", caught_by::value_checks,
            validate_as_written_square, launch_mm2_as_written, tile_too_small},
    variant{"MM2AsWrittenTileTooLarge", "MM2", "seed 002 MM2 as written, TILE_WIDTH too large for n",
            "32 x TILE_WIDTH > n: reads and writes past the matrices", caught_by::value_checks, validate_as_written_square,
            launch_mm2_as_written, tile_too_large},
    variant{"MM3AsWritten", "MM3", "seed 002 MM3 as written, grid = n / block",
            "no bounds check: right only when the block side divides n", caught_by::value_checks, validate_as_written_square,
            launch_mm3_as_written, one_output_per_thread_configs},
    variant{"MM4AsWritten", "MM4", "seed 002 MM4 as written, grid = n / (block x TILE_WIDTH)",
            "no bounds check: right only when grid x block x TILE_WIDTH = n", caught_by::value_checks,
            validate_as_written_square, launch_mm4_as_written, report_mm4_configs},
    variant{"TiledNoSecondSync", "MMs", "tiled, TILE_WIDTH 16, without the second __syncthreads()",
            "a warp overwrites the shared tile while others still read it (WAR race; right values in 20/20 cases on an "
            "H100: latent, caught by racecheck)",
            caught_by::racecheck,
            validate_cublas, launch_tiled_no_second_sync, tile16_config},
    variant{"TiledTileCountRoundsDown", "MMs", "tiled, TILE_WIDTH 16, tile loop bound k / TILE_WIDTH",
            "off by one: the last partial tile is dropped when TILE_WIDTH does not divide k", caught_by::value_checks,
            validate_cublas, launch_tiled_tile_count_rounds_down, tile16_config},
    variant{"CublasAsWritten", "MMc", "the report's cublasSgemm(h, N, N, n, n, n, 1, A, n, B, n, 0, C, n)",
            "column-major cuBLAS on row-major data computes B x A", caught_by::value_checks,
            validate_cublas_as_written_square, launch_cublas_as_written, library_configs},
    variant{"ReadsBTransposed", "MM3", "one output per thread reading B[col][j]",
            "computes A x B^T: right only for symmetric B", caught_by::value_checks, validate_as_written_square,
            launch_reads_b_transposed, block16_config},
    // Issue 6: each of these passed every check before the check that now catches it (issue6_rows.cu).
    variant{"CublasTf32", "MMc", "cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH",
            "rounds A and B to TF32 (11 significant bits): exact on small integers, wrong on wider ones",
            caught_by::value_checks, validate_cublas, launch_cublas_tf32, library_configs},
    variant{"CublasIgnoresStream", "MMc", "cublasSgemm left on the default stream",
            "ignores the caller's stream: runs before the inputs queued on that stream have landed",
            caught_by::value_checks, validate_cublas, launch_cublas_ignores_stream, library_configs},
    variant{"WrongLeadingDimension", "MM3", "one output per thread indexing A as a[row * n + j]",
            "A's leading dimension taken as n instead of k: right whenever n = k (every square shape)",
            caught_by::value_checks, validate_one_output_per_thread, launch_wrong_leading_dimension, block16_config},
    variant{"DebugStoreInA", "MM3", "one output per thread with a leftover store of C[0][0] into A[0]",
            "writes into its input A (C is usually still right: A[0] is read before the store)",
            caught_by::value_checks, validate_one_output_per_thread, launch_debug_store_in_a, block16_config},
    variant{"TiledReadsPastRowEnd", "MMs", "tiled, TILE_WIDTH 16, A loaded before its column check",
            "reads up to 15 elements past the end of A on the last row and discards them (only memcheck sees it)",
            caught_by::memcheck, validate_shared_tiled, launch_tiled_reads_past_row_end, tile16_config},
};

}  // namespace

std::span<const variant> correct_variants() { return correct; }
std::span<const variant> known_bad_variants() { return known_bad; }

const variant* find_variant(std::string_view name) { return find_row(correct_variants(), known_bad_variants(), name); }

}  // namespace kc::matmul
