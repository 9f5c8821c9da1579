// The ATAX launch functions behind the registry's rows (internal). Each is called by launch() after
// validate() accepted (shape, config); it launches on context.stream and reports cudaGetLastError()
// (or the cuBLAS status). Correct variants: two_kernels.cu, shared_staged.cu, cublas_gemv.cpp; the
// known-bad rows: known_bad/.
#pragma once

#include "kernels/polybench/atax/atax.hpp"

namespace kc::polybench::atax::detail {

#define KC_ATAX_LAUNCHER(name)                                                                                 \
  launch_status name(const double* a, const double* x, double* tmp, double* y, const atax_shape& s,         \
                     const atax_config& config, const launch_context& context)

KC_ATAX_LAUNCHER(launch_two_kernels);       // two_kernels.cu
KC_ATAX_LAUNCHER(launch_shared_staged);     // shared_staged.cu
KC_ATAX_LAUNCHER(launch_cublas);            // cublas_gemv.cpp
KC_ATAX_LAUNCHER(launch_fused_as_written);  // known_bad/fused_as_written.cu
KC_ATAX_LAUNCHER(launch_row_per_thread_both_phases);  // known_bad/row_per_thread_both_phases.cpp

#undef KC_ATAX_LAUNCHER

// The two products of AtaxTwoKernels, one launch each (two_kernels.cu); the known-bad
// RowPerThreadBothPhases launches the first one twice.
//   out[i] = Σ_{j < cols} a[i·cols + j]·v[j] for i < rows: one thread per row
launch_status launch_rows_times_vector(const double* a, const double* v, double* out, int rows, int cols, int block,
                                       cudaStream_t stream);
//   out[j] = Σ_{i < rows} a[i·cols + j]·v[i] for j < cols: one thread per column (coalesced)
launch_status launch_columns_times_vector(const double* a, const double* v, double* out, int rows, int cols, int block,
                                          cudaStream_t stream);

// Dynamic shared memory AtaxSharedStaged asks for at a block: one chunk of `block` doubles.
std::size_t shared_staged_bytes(int block);
std::string shared_staged_constraint(const atax_shape& s, const atax_config& config, const device_limits& limits);
// The seed's kernel has BLOCK_SIZE compiled in and 32-bit int index arithmetic.
std::string fused_as_written_constraint(const atax_shape& s, const atax_config& config, const device_limits& limits);

}  // namespace kc::polybench::atax::detail
