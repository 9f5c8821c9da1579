// PolyBench Conv2D 3×3 (KERNELS.md §5 and §6, seed 004 Άσκηση 1), double precision.
//
// a is ni rows × nj columns, row-major. For the interior points only (1 <= i < ni−1, 1 <= j < nj−1):
//
//   b[i][j] = c11·a[i−1][j−1] + c12·a[i][j−1] + c13·a[i+1][j−1]
//           + c21·a[i−1][j]   + c22·a[i][j]   + c23·a[i+1][j]
//           + c31·a[i−1][j+1] + c32·a[i][j+1] + c33·a[i+1][j+1]
//
// (the first digit of c names the column offset −1, 0, +1; the second the row offset). The border
// of b is never written: it keeps whatever b held before the launch. With ni < 3 or nj < 3 there is
// no interior and a launch writes nothing.
//
// Every variant is a row of the registry (registry.cpp); launchers take device pointers and a
// conv2d_config (a 2-D block), validate it, and return a launch_status (never throw, exit or
// synchronise). The grid is always ceil(nj / block_x) × ceil(ni / block_y), one thread per element.
#pragma once

#include "kernels/kernel_handles.hpp"
#include "kernels/launch.hpp"
#include "kernels/registry_rows.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace kc::polybench::conv2d {

// The PolyBench 2DCONV coefficients, exactly as KERNELS.md and the seed write them. The CPU
// reference keeps its own copy (reference/polybench/conv2d_reference.hpp); a CPU test holds the two
// equal, so a slip in either one is seen.
struct coefficients {
  static constexpr double c11 = +0.2, c21 = +0.5, c31 = -0.8;
  static constexpr double c12 = -0.3, c22 = +0.6, c32 = -0.9;
  static constexpr double c13 = +0.4, c23 = +0.7, c33 = +0.10;
};

struct conv2d_config {
  int block_x = 16;  // threads per block along j (columns)
  int block_y = 16;  // threads per block along i (rows)
  std::string describe() const;  // "block 32x8"
  std::string name() const;      // "B32x8" (test names)
  bool operator==(const conv2d_config&) const = default;
};

// The seed's 16×16, PolyBench/GPU's 32×8, 8×8, 32×32, and KERNELS.md §6's "1-D rows" (256×1).
inline constexpr conv2d_config seed_block{16, 16};
inline constexpr conv2d_config polybench_block{32, 8};
inline constexpr conv2d_config rows_block{256, 1};

struct grid_2d {
  std::size_t x = 0;  // column blocks
  std::size_t y = 0;  // row blocks
};
// ceil(nj / block_x) × ceil(ni / block_y): one thread per element of a (borders included; the
// kernels guard the interior). The seed's numBlocksX = (NJ − 1) / 16 + 1, numBlocksY = (NI − 1) / 16 + 1.
grid_2d grid_for(std::size_t ni, std::size_t nj, const conv2d_config& config);

// Elements of the interior: (ni − 2)·(nj − 2), 0 when ni < 3 or nj < 3.
std::size_t interior_points(std::size_t ni, std::size_t nj);

using ::kc::caught_by;
using ::kc::name_of;

using launch_fn = launch_status (*)(const double* a, double* b, std::size_t ni, std::size_t nj,
                                    const conv2d_config& config, cudaStream_t stream);
// A row's own constraints beyond the common ones; "" when fine.
using constraint_fn = std::string (*)(std::size_t ni, std::size_t nj, const conv2d_config& config);

struct variant {
  std::string_view name;        // CamelCase, used in test names: "Conv2dDirect"
  std::string_view catalog_id;  // KERNELS.md id: "Conv2D"
  std::string_view seed;        // "004"
  std::string_view technique;
  std::string_view known_bug;   // empty for correct variants
  caught_by detection = caught_by::value_checks;
  std::string_view how_caught;  // for known-bad rows: which check, at which sizes
  bool shared_tile = false;     // stages a (block_y + 2) × (block_x + 2) tile of a in shared memory
  launch_fn launch = nullptr;
  constraint_fn constraint = nullptr;

  bool is_known_bad() const { return !known_bug.empty(); }
};

// Dynamic shared memory a launch of v with `config` uses (the halo tile), in bytes.
std::size_t shared_bytes(const variant& v, const conv2d_config& config);

// ---- the registry ----
std::span<const variant> correct_variants();
std::span<const variant> known_bad_variants();
const variant* find_variant(std::string_view name);  // in either list; nullptr if absent

// Checks (ni, nj) and config against the variant's rules and the device's limits; messages say
// what would fit ("grid 1 x 70000 exceeds ... 65535 row blocks: use block_y >= 2").
launch_status validate(const variant& v, std::size_t ni, std::size_t nj, const conv2d_config& config,
                       const device_limits& limits);
// validate + launch on `stream`; a and b hold ni·nj doubles each.
launch_status launch(const variant& v, const double* a, double* b, std::size_t ni, std::size_t nj,
                     const conv2d_config& config, cudaStream_t stream = nullptr);
// Launch a correct variant by name (perf tests, benchmarks); refused for unknown or known-bad names.
launch_status launch_by_name(std::string_view name, const double* a, double* b, std::size_t ni, std::size_t nj,
                             const conv2d_config& config, cudaStream_t stream = nullptr);

// The __global__ function v launches with `config`, for the occupancy check (kernels/kernel_handles.hpp).
// Empty for the known-bad rows.
kernel_handle kernel_handle_of(const variant& v, const conv2d_config& config);

}  // namespace kc::polybench::conv2d
