// The launch functions behind the registry's rows (internal to kernels/reduction). Each launches
// one pass over a geometry that reduction.cpp has already validated.
#pragma once

#include "kernels/reduction/reduction.hpp"

namespace kc::reduction::detail {

// Correct variants, seed 000 (KERNELS.md §1).
launch_status launch_interleaved_divergent(float* in, float* out, const pass_geometry& g, cudaStream_t s);  // K1
launch_status launch_interleaved_strided(float* in, float* out, const pass_geometry& g, cudaStream_t s);    // K2
launch_status launch_sequential_addressing(float* in, float* out, const pass_geometry& g, cudaStream_t s);  // K3
launch_status launch_first_add_during_load(float* in, float* out, const pass_geometry& g, cudaStream_t s);  // K4
launch_status launch_unrolled_last_warp(float* in, float* out, const pass_geometry& g, cudaStream_t s);     // K5
// Beyond seed 000.
launch_status launch_complete_unroll(float* in, float* out, const pass_geometry& g, cudaStream_t s);       // K6
launch_status launch_grid_stride_unroll(float* in, float* out, const pass_geometry& g, cudaStream_t s);    // K7
launch_status launch_warp_shuffle(float* in, float* out, const pass_geometry& g, cudaStream_t s);
// Seed 001, corrected (KERNELS.md §2).
launch_status launch_global_interleaved(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_global_sequential(float* in, float* out, const pass_geometry& g, cudaStream_t s);
// The CUDA Toolkit's library reduction.
reduce_outcome cub_reduce(const variant& v, float* a, std::size_t n, float* scratch, std::size_t scratch_elements,
                          const reduce_config& config, cudaStream_t stream, const pass_observer* observer);
std::size_t cub_scratch(const variant& v, std::size_t n, const reduce_config& config);

// The __global__ function behind each correct pass launcher, for the occupancy check
// (kernel_handles.cpp). Block-templated kernels (K6, K7) return the instantiation for `block`
// (nullptr if none is built); the others ignore it.
const void* interleaved_divergent_function(int block);
const void* interleaved_strided_function(int block);
const void* sequential_addressing_function(int block);
const void* first_add_during_load_function(int block);
const void* unrolled_last_warp_function(int block);
const void* complete_unroll_function(int block);
const void* grid_stride_unroll_function(int block);
const void* warp_shuffle_function(int block);
const void* global_interleaved_function(int block);
const void* global_sequential_function(int block);

// Known-bad variants (kernels/reduction/known_bad/): the seeds' bugs, kept so the suite can prove
// it rejects them.
launch_status launch_str2_as_written(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_str3_as_written(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_volatile_warp_unroll(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_sequential_tid_le_s(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_unguarded_second_load(float* in, float* out, const pass_geometry& g, cudaStream_t s);
reduce_outcome run_multipass_wrong_final_buffer(const variant& v, float* a, std::size_t n, float* scratch,
                                                std::size_t scratch_elements, const reduce_config& config,
                                                cudaStream_t stream, const pass_observer* observer);
// Issue 6's known-bad rows: each escaped the suite before the check that now catches it.
reduce_outcome atomic_float_index_guard(const variant& v, float* a, std::size_t n, float* scratch,
                                        std::size_t scratch_elements, const reduce_config& config, cudaStream_t stream,
                                        const pass_observer* observer);
std::size_t atomic_scratch(const variant& v, std::size_t n, const reduce_config& config);
std::size_t atomic_summation_depth(std::size_t n);
launch_status launch_sequential_default_stream(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_sequential_reads_past_end(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_sequential_skips_equal_write(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_sequential_zeroes_input(float* in, float* out, const pass_geometry& g, cudaStream_t s);
launch_status launch_sequential_carry_into_next_chunk(float* in, float* out, const pass_geometry& g, cudaStream_t s);

}  // namespace kc::reduction::detail
