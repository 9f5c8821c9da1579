// PolyBench covariance (KERNELS.md §5 and §6, seed 004 Άσκηση 3, catalog id COVAR), double precision.
//
// data is n rows (observations) × m columns (variables), row-major; mean has m entries; symmat is
// m × m, row-major. With FLOAT_N a parameter (the seed's 3214212.01, or n for the true mean):
//
//   mean[j]         = Σ_i data[i][j] / FLOAT_N
//   data[i][j]     -= mean[j]                                  (centring: data is scratch)
//   symmat[j1][j2]  = symmat[j2][j1] = Σ_i data[i][j1]·data[i][j2]   (no division by n − 1)
//
// Outputs: mean and every element of symmat (both triangles). data may be centred in place; its
// contents after the launch are not part of the contract.
//
// Every variant is a row of the registry (registry.cpp); a launcher takes device pointers, the
// dimensions, FLOAT_N and a covariance_config, validates them, and returns a launch_status (never
// throws, exits or synchronises; everything goes on the given stream).
#pragma once

#include "kernels/kernel_handles.hpp"
#include "kernels/launch.hpp"
#include "kernels/registry_rows.hpp"

#include <cublas_v2.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kc::polybench::covariance {

// The seed's FLOAT_N (hard-coded in its kernel, `double float_n = 3214212.01;`), which makes the mean
// about n / 3.2e6 of the true one.
inline constexpr double seed_float_n = 3214212.01;

struct dims {
  int n = 0;  // rows: observations
  int m = 0;  // columns: variables (mean has m entries, symmat is m × m)
  std::size_t data_elements() const { return static_cast<std::size_t>(n) * static_cast<std::size_t>(m); }
  std::size_t symmat_elements() const { return static_cast<std::size_t>(m) * static_cast<std::size_t>(m); }
  std::string describe() const;  // "33 x 65 (n rows x m columns)"
};

// How a launch is shaped. Three kernels in the correct pipeline (mean, centring, product), each with
// its own block; the fields a row does not use are 0.
struct covariance_config {
  int tile = 16;        // product: tile × tile threads per block, tiles of tile × tile doubles (8, 16, 32);
                        // 0 = the product is a library call (cuBLAS)
  int mean_block = 256; // mean: 1-D blocks, one thread per column
  int centre_x = 32;    // centring (and the cuBLAS peer's mirror): 2-D blocks, x along columns,
  int centre_y = 8;     //   y along rows (PolyBench/GPU's 32 × 8)
  std::string describe() const;  // "tile 16x16, mean block 256, centring block 32x8"
  std::string name() const;      // "T16B256C32x8" (test names); "LibB256C32x8" for a library product
  bool operator==(const covariance_config&) const = default;
};

// What a launch needs besides the data: the stream, and the process's cuBLAS handle (created once by
// the caller: cublasCreate costs milliseconds; fixtures/cublas_handle.hpp).
struct launch_context {
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
};

// How the product is computed: the constraints validate() applies to config.tile follow from it.
enum class product_kind {
  tiled,    // shared-memory tiles, config.tile in {8, 16, 32}
  library,  // cuBLAS; config.tile must be 0
  fused,    // the seed's one fused kernel, BLOCK_SIZE 16 compiled in (config.tile must be 16)
};
const char* name_of(product_kind kind);

using ::kc::caught_by;
using ::kc::name_of;

using launch_fn = launch_status (*)(double* data, double* mean, double* symmat, const dims& d, double float_n,
                                    const covariance_config& config, const launch_context& context);
// The configurations the suite runs a row with at a size.
using configs_fn = std::vector<covariance_config> (*)(const dims& d);
// A row's own constraints beyond the common ones; "" when fine.
using constraint_fn = std::string (*)(const dims& d, const covariance_config& config);

struct variant {
  std::string_view name;        // CamelCase, used in test names: "CovarianceMultiKernel"
  std::string_view catalog_id;  // KERNELS.md id: "COVAR"
  std::string_view seed;        // "004"
  std::string_view technique;
  std::string_view known_bug;   // empty for correct variants
  caught_by detection = caught_by::value_checks;
  std::string_view how_caught;  // for known-bad rows: which check, at which size first
  product_kind product = product_kind::tiled;
  launch_fn launch = nullptr;
  configs_fn configs = nullptr;
  constraint_fn constraint = nullptr;

  bool is_known_bad() const { return !known_bug.empty(); }
};

// ---- the registry ----
std::span<const variant> correct_variants();
std::span<const variant> known_bad_variants();
const variant* find_variant(std::string_view name);  // in either list; nullptr if absent

// The sweeps the registry rows use: the tiled pipeline's three configurations (tile 8 with 64-thread
// mean blocks and 8 × 8 centring blocks; the seed's tile 16 with PolyBench/GPU's 256 and 32 × 8;
// tile 32 with 1024 and 32 × 32), and the library peer's one (PolyBench/GPU's 256 and 32 × 8).
std::vector<covariance_config> tiled_configs(const dims& d);
std::vector<covariance_config> library_configs(const dims& d);

// Checks the dimensions, FLOAT_N and config against the row's rules and the device's limits;
// messages say what would fit ("centring block 64x32 has 2048 threads ...: use 32x8 or 32x32").
launch_status validate(const variant& v, const dims& d, double float_n, const covariance_config& config,
                       const device_limits& limits);
// validate + launch on context.stream. data holds n·m doubles (centred in place), mean m, symmat m·m.
launch_status launch(const variant& v, double* data, double* mean, double* symmat, const dims& d, double float_n,
                     const covariance_config& config, const launch_context& context);
// Launch a correct variant by name (benchmarks); refused for unknown or known-bad names.
launch_status launch_by_name(std::string_view name, double* data, double* mean, double* symmat, const dims& d,
                             double float_n, const covariance_config& config, const launch_context& context);

// The product kernel a tiled row launches with `config` (the pipeline's heaviest kernel), for the
// occupancy check (kernels/kernel_handles.hpp). Empty for the library peer and the known-bad rows.
kernel_handle kernel_handle_of(const variant& v, const covariance_config& config);

}  // namespace kc::polybench::covariance
