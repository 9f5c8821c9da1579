// Matrix multiplication family: C = A·B, float, row-major, A m×k, B k×n, C m×n (KERNELS.md §3,
// seed 002). Every variant is a row of the registry (registry.cpp); the suite in tests/matmul is
// instantiated from it, so a new variant inherits every test by adding one row.
#pragma once

#include "kernels/kernel_handles.hpp"
#include "kernels/launch.hpp"
#include "kernels/registry_rows.hpp"

#include <cublas_v2.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kc::matmul {

struct shape {
  int m = 0;  // rows of A and C
  int n = 0;  // columns of B and C
  int k = 0;  // columns of A, rows of B
  bool square() const { return m == n && n == k; }
  std::string describe() const;  // "33x65x17 (m x n x k)"
};

struct matmul_config {
  int block = 16;       // threads per block side (blocks are block × block)
  int tile_width = 1;   // TILE_WIDTH: outputs per thread per side (MM2, MM4), or the shared tile (tiled)
  std::string describe() const;
  bool operator==(const matmul_config&) const = default;
};

// What a launch needs besides the data: the stream, and a cuBLAS handle that the caller creates
// once (creating one per call is the report's other cuBLAS mistake: it costs milliseconds).
struct launch_context {
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
};

using validate_fn = launch_status (*)(const shape& s, const matmul_config& c, const device_limits& limits);
using launch_fn = launch_status (*)(const float* a, const float* b, float* c, const shape& s, const matmul_config& config,
                                    const launch_context& context);
// The configurations the suite runs a variant with at a given shape.
using configs_fn = std::vector<matmul_config> (*)(const shape& s);

// How the suite is expected to catch a known-bad variant (kernels/registry_rows.hpp): wrong values
// (or guards, or a changed input), or — for bugs that leave the values right — the tool named.
using ::kc::caught_by;

struct variant {
  std::string_view name;        // CamelCase, used in test names
  std::string_view catalog_id;  // KERNELS.md id: "MM1" ... "MMc", "MMs"
  std::string_view technique;
  std::string_view known_bug;   // empty for correct variants
  caught_by detection = caught_by::value_checks;
  validate_fn validate = nullptr;
  launch_fn launch_kernel = nullptr;
  configs_fn configs = nullptr;
  // Reads C before writing it (a BLAS-style C = alpha·A·B + beta·C at beta = 0, as graded
  // submissions may be): the check fills C with a finite value instead of NaN poison, so the launch
  // sees no NaN, and an element it never writes still fails (tests/matmul/matmul_checks.hpp).
  bool reads_output = false;

  bool is_known_bad() const { return !known_bug.empty(); }
};

std::span<const variant> correct_variants();
std::span<const variant> known_bad_variants();
const variant* find_variant(std::string_view name);

// Validates, then launches on context.stream; never synchronises.
launch_status launch(const variant& v, const float* a, const float* b, float* c, const shape& s,
                     const matmul_config& config, const launch_context& context);

// The __global__ function v launches with `config` (block × block threads, no dynamic shared
// memory), for the occupancy check (kernels/kernel_handles.hpp). Empty for cuBLAS (it picks its own
// kernels) and for rows with no handle registered in kernel_handles.cpp (the known-bad kernels).
kernel_handle kernel_handle_of(const variant& v, const matmul_config& config);

// Grid (x = column blocks, y = row blocks) a many-block variant launches for a shape.
struct grid_2d {
  int x = 1;
  int y = 1;
};
grid_2d one_output_per_thread_grid(const shape& s, const matmul_config& c);  // MM3
grid_2d patch_per_thread_grid(const shape& s, const matmul_config& c);       // MM4

}  // namespace kc::matmul
