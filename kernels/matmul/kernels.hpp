// Launch functions and validators behind the matmul registry's rows (internal).
#pragma once

#include "kernels/matmul/matmul.hpp"

namespace kc::matmul::detail {

#define KC_MATMUL_LAUNCH(name) \
  launch_status name(const float* a, const float* b, float* c, const shape& s, const matmul_config& config, \
                     const launch_context& context)
#define KC_MATMUL_VALIDATE(name) launch_status name(const shape& s, const matmul_config& config, const device_limits& limits)

// Correct variants.
KC_MATMUL_VALIDATE(validate_single_block);
KC_MATMUL_LAUNCH(launch_single_block);              // MM1
KC_MATMUL_VALIDATE(validate_single_block_patch);
KC_MATMUL_LAUNCH(launch_single_block_patch);        // MM2
KC_MATMUL_VALIDATE(validate_one_output_per_thread);
KC_MATMUL_LAUNCH(launch_one_output_per_thread);     // MM3
KC_MATMUL_VALIDATE(validate_patch_per_thread);
KC_MATMUL_LAUNCH(launch_patch_per_thread);          // MM4
KC_MATMUL_VALIDATE(validate_shared_tiled);
KC_MATMUL_LAUNCH(launch_shared_tiled);              // MMs
KC_MATMUL_VALIDATE(validate_cublas);
KC_MATMUL_LAUNCH(launch_cublas_row_major);          // MMc

// The __global__ function behind each hand-written launcher, for the occupancy check
// (kernel_handles.cpp). The tiled kernel returns its instantiation for config.tile_width (nullptr if
// none is built); MM2/MM4 the kernel for the patch's width (patch_per_thread, or
// patch_per_thread_wide from TILE_WIDTH 8, named by patch_per_thread_name); MM1/MM3 ignore the config.
const void* one_output_per_thread_function(const matmul_config& config);
const void* patch_per_thread_function(const matmul_config& config);
const char* patch_per_thread_name(const matmul_config& config);
const void* shared_tiled_function(const matmul_config& config);

// Known-bad variants (known_bad/).
KC_MATMUL_VALIDATE(validate_as_written_square);
KC_MATMUL_VALIDATE(validate_cublas_as_written_square);
KC_MATMUL_LAUNCH(launch_mm1_as_written);
KC_MATMUL_LAUNCH(launch_mm2_as_written);
KC_MATMUL_LAUNCH(launch_mm3_as_written);
KC_MATMUL_LAUNCH(launch_mm4_as_written);
KC_MATMUL_LAUNCH(launch_tiled_no_second_sync);
KC_MATMUL_LAUNCH(launch_tiled_tile_count_rounds_down);
KC_MATMUL_LAUNCH(launch_cublas_as_written);
KC_MATMUL_LAUNCH(launch_reads_b_transposed);
KC_MATMUL_LAUNCH(launch_cublas_tf32);
KC_MATMUL_LAUNCH(launch_cublas_ignores_stream);
KC_MATMUL_LAUNCH(launch_wrong_leading_dimension);
KC_MATMUL_LAUNCH(launch_debug_store_in_a);
KC_MATMUL_LAUNCH(launch_tiled_reads_past_row_end);

}  // namespace kc::matmul::detail
