// Access family: memory access patterns, warp divergence and occupancy (KERNELS.md §4, seed 003).
//
// The arithmetic is trivial (C = A op B); what the kernels differ in is *which* elements a warp
// touches and how its threads branch. Every variant is a row of the registry (registry.cpp); the
// launchers take device pointers and an access_config, validate it, and return a launch_status
// (never throw, exit or synchronise). Tests, sanitizer runs and (later) perf tests are instantiated
// from the registry. Index arithmetic shared with the CPU reference: index_functions.hpp.
#pragma once

#include "kernels/access/index_functions.hpp"
#include "kernels/kernel_handles.hpp"
#include "kernels/launch.hpp"
#include "kernels/registry_rows.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kc::access {

// The seed's occupancy scenarios (OC), as launch-configuration generators.
enum class scenario {
  none,  // the block is given
  s1,    // threads per block = n up to 1024, else 1024 (one block while n <= 1024)
  s2,    // as many blocks as possible: 32 for n <= 512, then n/16 (64 at 1024 ... 512 at 8192), capped at 1024
};
const char* name_of(scenario s);  // "S1", "S2", ""
// S1: min(n, 1024) (at least 1).
int scenario_s1_block(std::size_t n);
// S2: the seed tabulates powers of two (32 for n <= 512, 64 at 1024, 128 at 2048, 256 at 4096,
// 512 at 8192, else 1024), i.e. bit_ceil(n) / 16 clamped to [32, 1024]; bit_ceil generalises the
// table to sizes between its rows (n = 1000 gets 64, as 1024 does).
int scenario_s2_block(std::size_t n);
int scenario_block(scenario s, std::size_t n, int given_block);

struct access_config {
  int block = 256;            // threads per block (with scenario s1/s2: the scenario's, set by the caller)
  int repeats = 100;          // times each thread repeats its body (seed: 100; OC's seed 1,000,000)
  std::uint64_t seed = 3;     // cuRAND seed / hash seed of the random-index variants
  scenario from = scenario::none;  // where the block came from (names and messages only)
  std::string describe() const;    // "block 256 (S2), 100 repeats, index seed 3"
};

// grid = ceil(n / block): every variant guards tid < n.
std::size_t grid_for(std::size_t n, int block);

// Which reference (or oracle) a variant's outputs are checked with.
enum class body {
  coalesced,         // AC1: C[i] = A[i] + B[i]
  curand_random,     // AC2: C[i] = A[j] + B[j], j from cuRAND: property oracles
  curand_group,      // AC3: as AC2, j inside the warp's 512-float group: property oracles
  hashed_random,     // AC2r: j = hashed_random_index: exact reference
  hashed_group,      // AC3r: j = hashed_group_index: exact reference
  branch_by_warp,    // DV1 / OC: op (tid/32) % 4
  branch_by_thread,  // DV2: op tid % 4
};
const char* name_of(body b);
bool uses_curand(body b);

// How the suite is expected to catch a known-bad row (kernels/registry_rows.hpp; no access row
// needs a sanitizer yet).
using ::kc::caught_by;
using ::kc::name_of;

using launch_fn = launch_status (*)(const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                                    cudaStream_t stream);
// The launcher's own constraints beyond the common ones (none for most rows); "" when fine.
using constraint_fn = std::string (*)(std::size_t n, const access_config& config);

struct variant {
  std::string_view name;        // CamelCase, used in test names: "NonCoalesced"
  std::string_view catalog_id;  // KERNELS.md id: "AC1", "AC2", "AC2r", ..., "OC"
  std::string_view seed;        // "003"
  std::string_view technique;
  std::string_view known_bug;   // empty for correct variants
  caught_by detection = caught_by::value_checks;
  std::string_view how_caught;  // for known-bad rows: which check, at which sizes
  body computes = body::coalesced;
  bool whole_warps = false;     // block must be a multiple of 32 (the pattern is chosen per warp)
  bool scenario_blocks = false; // swept with the S1/S2 generators (OC) rather than fixed blocks
  launch_fn launch = nullptr;
  constraint_fn constraint = nullptr;

  bool is_known_bad() const { return !known_bug.empty(); }
};

// ---- the registry ----
std::span<const variant> correct_variants();
std::span<const variant> known_bad_variants();
const variant* find_variant(std::string_view name);  // in either list; nullptr if absent

// Checks n and config against the variant's rules and the device's limits; messages say what
// would fit ("block 100 is not a multiple of 32: ...").
launch_status validate(const variant& v, std::size_t n, const access_config& config, const device_limits& limits);
// validate + launch on `stream`; c must hold n floats, a and b n floats each.
launch_status launch(const variant& v, const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                     cudaStream_t stream = nullptr);

// The simple API for timing (perf/profile tests): launch a correct variant by name on device buffers.
// Refused if the name is not a correct variant.
launch_status launch_by_name(std::string_view name, const float* a, const float* b, float* c, std::size_t n,
                             const access_config& config, cudaStream_t stream = nullptr);

// The first seed in [start, start + limit) on which warp 0 of a cuRAND AC3 kernel (group generator
// curand_init(seed ^ group_salt, 0, 0)) draws a first number r with r / floor(2^32 / groups) ==
// groups: the seed's group formula then reads one past the last whole group (overflow_seed.cu).
// nullopt when groups divides 2^32 (no such r), none was found, or a CUDA call failed.
std::optional<std::uint64_t> find_group_overflow_seed(std::uint32_t groups, std::uint64_t start, std::uint64_t limit,
                                                      cudaStream_t stream = nullptr);

// The __global__ function v launches with `config` (config.block threads, no dynamic shared memory),
// for the occupancy check (kernels/kernel_handles.hpp). Empty for rows with no handle registered in
// kernel_handles.cpp (the known-bad kernels).
kernel_handle kernel_handle_of(const variant& v, const access_config& config);

}  // namespace kc::access
