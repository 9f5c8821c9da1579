// Reduction family: sum of n floats (KERNELS.md §1–2, seeds 000 and 001).
//
// Every variant is a row of the registry (registry.cpp). Most are *pass kernels*: one launch turns n
// inputs into one partial sum per block, and the multi-pass driver (multipass.cpp) repeats passes,
// ping-ponging between two buffers as seed 000 does, until one value is left. Library reductions
// (CUB) reduce n -> 1 themselves. Tests and benchmarks are instantiated from the registry, so a new
// variant — or a student's submission — inherits the whole suite by adding one row.
#pragma once

#include "kernels/kernel_handles.hpp"
#include "kernels/launch.hpp"
#include "kernels/registry_rows.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kc::reduction {

struct reduce_config {
  int block = 256;  // threads per block
  int grid = 0;     // blocks in the (first) pass; 0 = the variant chooses
  std::string describe() const;
};

// How one pass divides its n inputs: chunks of `chunk_elements` consecutive elements, block b
// reducing chunks b, b + grid, b + 2·grid, ... (one chunk per block unless the variant is
// grid-stride). The CPU reference computes each block's expected partial sum from this.
struct pass_geometry {
  std::size_t n = 0;
  int block = 0;
  std::size_t grid = 0;
  std::size_t chunk_elements = 0;

  std::size_t chunks() const { return (n + chunk_elements - 1) / chunk_elements; }
  // Upper bound on the additions any one input goes through in this pass (the summation depth
  // behind the error bound): each thread adds its items in sequence, then a tree over the block.
  std::size_t summation_depth() const;
};

// Which blocks a variant supports.
struct block_rule {
  int min_block = 32;
  int max_block = 1024;
  bool power_of_two = true;   // tree reductions that halve the active threads each step
  int multiple_of = 1;        // e.g. 32 for whole warps
};

enum class grid_policy {
  one_block_per_chunk,  // grid = ceil(n / chunk); a larger grid is allowed (extra blocks write 0)
  grid_stride,          // grid chosen to fill the GPU; each block loops over its chunks
};

// The kernel behind a pass: geometry already validated; launches on `stream` and reports
// cudaGetLastError(). `in` is not const because seed 001's kernels reduce in place.
using pass_launch_fn = launch_status (*)(float* in, float* out, const pass_geometry& geometry, cudaStream_t stream);

struct pass_kernel {
  int elements_per_thread = 1;  // per chunk: chunk_elements = block · elements_per_thread
  grid_policy grid = grid_policy::one_block_per_chunk;
  bool destroys_input = false;  // seed 001's in-place kernels
  block_rule blocks;
  pass_launch_fn launch = nullptr;
};

struct multipass_plan {
  std::vector<pass_geometry> passes;  // pass k reads A (k even) or B (k odd), writes the other
  std::size_t scratch_elements = 0;   // buffer B must hold this many floats
  bool result_in_scratch = false;     // where the final value lies: B[0] (true) or A[0]
  std::size_t summation_depth() const;
};

struct reduce_outcome {
  launch_status status = launch_status::ok();
  const float* result = nullptr;  // device pointer to the sum (valid once the stream is synchronised)
  multipass_plan plan;            // empty for library reductions
};

struct variant;

// Called by the multi-pass driver right after it enqueues each pass, with that pass's output
// buffer: the tests copy it there, on the stream, and check every pass's partial sums exactly after
// the launch, not only the final total. Drivers that have no passes (libraries) never call it.
struct pass_observer {
  void (*after_pass)(void* context, std::size_t pass_index, const pass_geometry& pass, const float* output,
                     cudaStream_t stream) = nullptr;
  void* context = nullptr;
};

// Reduces a[0..n) to one value; may overwrite a and scratch. Library reductions and the multi-pass
// driver (and its known-bad twin) have this shape.
using full_reduce_fn = reduce_outcome (*)(const variant& v, float* a, std::size_t n, float* scratch,
                                          std::size_t scratch_elements, const reduce_config& config,
                                          cudaStream_t stream, const pass_observer* observer);
using scratch_fn = std::size_t (*)(const variant& v, std::size_t n, const reduce_config& config);

// How the suite is expected to catch a known-bad variant (kernels/registry_rows.hpp).
using ::kc::caught_by;
using ::kc::name_of;

struct variant {
  std::string_view name;        // CamelCase, used in test names: "SequentialAddressing"
  std::string_view catalog_id;  // KERNELS.md id: "K3", "Str2", "CUB", ...
  std::string_view seed;        // seed report it comes from: "000", "001", or "beyond 000"
  std::string_view technique;
  std::string_view known_bug;   // empty for correct variants; else the bug, as the seed has it
  caught_by detection = caught_by::value_checks;
  pass_kernel pass;             // pass.launch == nullptr for library reductions
  full_reduce_fn reduce = nullptr;
  scratch_fn scratch = nullptr;
  // Summation depth of a library/atomic n -> 1 reduction (behind its real-input error bound);
  // nullptr: the conservative CUB-shaped default of tests/reduction/reduction_checks.hpp.
  std::size_t (*library_depth)(std::size_t n) = nullptr;
  // Blocks an n -> 1 reduction without a pass (`reduce` set, `pass.launch` null) is swept with:
  // a graded submission that takes a block. Unset: it picks its own and is called with block 0.
  std::optional<block_rule> full_blocks;

  bool is_known_bad() const { return !known_bug.empty(); }
  bool has_pass() const { return pass.launch != nullptr; }
  // Block sizes the suite sweeps for this variant, from its own block_rule (full_blocks for an
  // n -> 1 reduction that takes a block; {0} for a library that picks its own). Power-of-two rules: every allowed power of two up to 1024. Multiple-of-m rules:
  // the multiples k·m for k in {1, 3, 7, 8, 31, 32} that the rule allows, plus its smallest and
  // largest allowed multiple (whole warps: 32, 96, 224, 256, 992, 1024), so non-powers of two run.
  std::vector<int> swept_blocks() const;
};

// ---- the registry ----
std::span<const variant> correct_variants();
std::span<const variant> known_bad_variants();
const variant* find_variant(std::string_view name);  // in either list; nullptr if absent

// ---- one pass ----
// Checks n and config against the variant's rules and the device's limits. Messages say what
// would fit, e.g. "block 96 is not a power of two: ...".
launch_status validate_pass(const variant& v, std::size_t n, const reduce_config& config, const device_limits& limits);
// The geometry a valid (n, config) gets: grid from the policy unless config.grid is set.
pass_geometry plan_pass(const variant& v, std::size_t n, const reduce_config& config, const device_limits& limits);
// validate_pass + plan_pass + launch; out must hold plan_pass(...).grid floats.
launch_status launch_pass(const variant& v, float* in, std::size_t n, float* out, const reduce_config& config,
                          cudaStream_t stream = nullptr);

// ---- the kernel behind a pass (the occupancy check; kernels/kernel_handles.hpp) ----
// The __global__ function v's pass launches with `block` threads, and the dynamic shared memory its
// launcher passes. Empty for a library (CUB picks its own kernels) and for rows with no handle
// registered in kernel_handles.cpp (the known-bad kernels).
kernel_handle kernel_handle_of(const variant& v, int block);

// ---- n -> 1 ----
// The seed-000 multi-pass plan: pass 1 uses config.block; each later pass uses the same block,
// shrunk to the next power of two (at least 32) that covers its input when that is smaller —
// seed 000's last pass over 64 or 32 values used one block of 64 or 32 threads.
multipass_plan plan_multipass(const variant& v, std::size_t n, const reduce_config& config, const device_limits& limits);
// Floats of scratch (buffer B) that reduce() needs.
std::size_t scratch_elements(const variant& v, std::size_t n, const reduce_config& config);
// Reduces a[0..n) (destroying it) using scratch; outcome.result points into a or scratch.
reduce_outcome reduce(const variant& v, float* a, std::size_t n, float* scratch, std::size_t scratch_elements,
                      const reduce_config& config, cudaStream_t stream = nullptr, const pass_observer* observer = nullptr);

// The generic seed-000 driver behind reduce() for pass variants.
reduce_outcome run_multipass(const variant& v, float* a, std::size_t n, float* scratch, std::size_t scratch_elements,
                             const reduce_config& config, cudaStream_t stream, const pass_observer* observer);
std::size_t multipass_scratch(const variant& v, std::size_t n, const reduce_config& config);

}  // namespace kc::reduction
