// PolyBench ATAX in double precision (KERNELS.md §5 and §6, seed 004 Άσκηση 2): y = Aᵀ·(A·x).
//
// A is nx rows × ny columns, row-major (A[i][j] = a[i·ny + j]); x has ny entries, y has ny; tmp has
// nx and is scratch (the caller provides it; a variant may leave anything there). PolyBench's loop:
// tmp[i] = Σ_j A[i][j]·x[j]; y[j] = Σ_i A[i][j]·tmp[i].
//
// tmp = A·x must be complete before any y[j] can be summed: a grid-wide dependency. Every correct
// variant therefore runs the two products as two launches on one stream (stream order is the
// barrier); the seed fused them into one kernel with no barrier (known_bad/fused_as_written.cu).
//
// Every variant is a row of the registry (registry.cpp); launchers take device pointers, a shape, a
// configuration and a launch_context, validate, and return a launch_status (never throw, exit or
// synchronise). The suite in tests/polybench/atax_* is instantiated from the registry.
#pragma once

#include "kernels/launch.hpp"
#include "kernels/registry_rows.hpp"

#include <cublas_v2.h>

#include <span>
#include <string>
#include <string_view>

namespace kc::polybench::atax {

struct atax_shape {
  int nx = 0;  // rows of A, entries of tmp
  int ny = 0;  // columns of A, entries of x and y
  std::size_t elements() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny); }
  std::string describe() const;  // "33 x 65 (nx x ny)"
  bool operator==(const atax_shape&) const = default;
};

struct atax_config {
  int block = 256;  // threads per 1-D block; 0: a library call that picks its own launch (cuBLAS)
  std::string describe() const;  // "block 256" or "library-chosen launch"
  bool operator==(const atax_config&) const = default;
};

// What a launch needs besides the data: the stream, and for cuBLAS a handle the caller creates once
// (fixtures/cublas_handle.hpp: process_cublas_handle()).
struct launch_context {
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
};

using ::kc::caught_by;
using ::kc::name_of;

using launch_fn = launch_status (*)(const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                                    const atax_config& config, const launch_context& context);
// A row's own rules beyond the common ones; "" when (s, config) is fine, else why not.
using constraint_fn = std::string (*)(const atax_shape& s, const atax_config& config, const device_limits& limits);

struct variant {
  std::string_view name;        // CamelCase, used in test names: "AtaxTwoKernels"
  std::string_view catalog_id;  // KERNELS.md id: "ATAX"
  std::string_view seed;        // "004"
  std::string_view technique;
  std::string_view known_bug;   // empty for correct variants
  caught_by detection = caught_by::value_checks;
  std::string_view how_caught;  // known-bad rows: which check catches it first, at which size
  bool library = false;         // cuBLAS: launched with block 0 (library-chosen)
  launch_fn launch = nullptr;
  constraint_fn constraint = nullptr;

  bool is_known_bad() const { return !known_bug.empty(); }
};

// ---- the registry ----
std::span<const variant> correct_variants();
std::span<const variant> known_bad_variants();
const variant* find_variant(std::string_view name);  // in either list; nullptr if absent

// Blocks ceil(extent / block) a 1-D launch over `extent` threads needs.
std::size_t blocks_for(int extent, int block);

// Checks the shape and configuration against the row's rules and the device's limits; a refusal
// says what would fit ("block 2048 exceeds this device's 1024 threads per block").
launch_status validate(const variant& v, const atax_shape& s, const atax_config& config, const device_limits& limits);
// validate + launch on context.stream; a holds nx·ny doubles, x ny, tmp nx, y ny. Never synchronises.
launch_status launch(const variant& v, const double* a, const double* x, double* tmp, double* y, const atax_shape& s,
                     const atax_config& config, const launch_context& context);
// For timing: a correct variant by name (refused for unknown and known-bad names).
launch_status launch_by_name(std::string_view name, const double* a, const double* x, double* tmp, double* y,
                             const atax_shape& s, const atax_config& config, const launch_context& context);

}  // namespace kc::polybench::atax
