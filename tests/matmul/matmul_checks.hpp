// The matmul suite's cases and its one check. check_matmul returns a check_result (passed, failed
// or refused) so the known-bad tests count failures with the very same check the correct variants
// must pass, and count refusals apart.
#pragma once

#include "fixtures/check_result.hpp"
#include "fixtures/device_buffer.hpp"
#include "kernels/matmul/matmul.hpp"
#include "reference/matmul_reference.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace kc::matmul::testing {

enum class input_kind {
  integer,       // uniform integers in [-8, 8]: every product and partial sum exact (|C| <= 64·k < 2^24)
  constants,     // the report's A = 1, B = 0.01: every C = k·0.01, within gamma(k + 1)·|C|
  structured,    // A[i][j] = (i + 2j) mod 7 − 3, B[i][j] = (3i + j) mod 5 − 2: non-symmetric integers
                 // that expose transposes and swapped operands; exact
  wide_integer,  // A: odd integers of magnitude in (2^11, 2^12), random signs; B: random ±1. Exact in
                 // float (partial sums <= 4095·k for k <= 4096; past that, the random signs of B
                 // bound them below 2^24 except with probability 2^-64), but no A value is
                 // representable in TF32 or half (11
                 // significant bits): a kernel or cuBLAS math mode that rounds inputs fails
  real,          // uniform reals in [-1, 1) for A and B: within gamma(k + 1)·(|A|·|B|)[i][j]
};
const char* name_of(input_kind kind);

// One GoogleTest case (fixtures/suite_case.hpp): a variant at one shape, one configuration and one
// input kind.
struct matmul_case {
  const variant* v = nullptr;
  shape s;
  matmul_config config;
  input_kind input = input_kind::integer;
  std::string name() const;  // "SharedTiledM33N65K17B16TW16Real" (no B/TW for a library call)
  // The variant, with ".Large" past 2^30 multiply-adds (Freivalds-checked shapes, seconds each), so
  // a variant's small shapes and its few heavy ones run as two processes side by side.
  std::string unit() const;
  double cost() const;  // multiply-adds in units of 2^24 plus one thread's serial chain in units of 2^17
};
// "unit:SharedTiled cost:1.0002" (what tools/runner reads from the test listing).
void PrintTo(const matmul_case& c, std::ostream* os);

// m·n·k: a product's multiply-adds, in double (no overflow), the measure every size rule here uses.
double multiply_adds(const shape& s);

// Squares around the report's sizes, outer products (k = 1), long k with a small C, tall and wide
// shapes, and three seeded random (m, n, k) — fixed seed, so the list is stable across discovery.
std::vector<shape> swept_shapes();
// The inputs every variant runs at a shape: integer, structured and wide integers always; the
// report's constants and real inputs where the full reference runs (m·n·k <= 2^30), since their
// check is a bound per element, not Freivalds.
std::vector<input_kind> inputs_for(const shape& s);
// The configurations a variant runs at a shape: its registry's configs(s), sampled at large shapes.
// Rule: above 2^27 multiply-adds, a configuration that launches fewer than 16,896 threads (4 warps
// per SM of an H100) is run only at the smaller shapes — it adds no coverage there that they lack,
// and costs seconds of serial work per thread (MM4 at 4096 with TILE_WIDTH >= 32 was 18.8 s of
// the 21 s per input). A variant always keeps its most parallel configuration. Above 2^30
// multiply-adds, such a low-parallelism configuration (a single-block MM2) runs the WideInteger
// input only. Known-bad rows face the same rule.
std::vector<matmul_config> swept_configs(const variant& v, const shape& s);
bool runs_input(const variant& v, const shape& s, const matmul_config& config, input_kind kind);
// Threads a configuration launches (blocks × threads per block); SIZE_MAX for a library call.
std::size_t threads_launched(const variant& v, const shape& s, const matmul_config& config);

// Every case of the given variants: at each shape of swept_shapes(), each input of inputs_for(shape)
// with each of swept_configs(v, shape) that runs_input allows, ordered variant, shape, input,
// config (consecutive cases share a prepared input). Shapes where the variant has no configuration
// its launcher accepts on an H100 are not its (MM1 beyond one block).
std::vector<matmul_case> sweep(std::span<const variant> variants);
// The same for one variant, accepted by its launcher or not (the known-bad rows' sweep).
std::vector<matmul_case> every_case_of(const variant& v);

// A check's inputs, drawn once per (shape, input kind) and shared by every configuration: host
// copies, the reference, and pristine device copies that each check stages from and compares
// against afterwards (a kernel that writes into A or B is wrong).
struct prepared_input {
  shape s;
  input_kind kind = input_kind::integer;
  std::uint64_t seed = 0;
  std::vector<float> a, b;
  std::vector<double> expected;      // full reference, when affordable
  std::vector<double> abs_expected;  // (|A|·|B|) for inputs compared within a bound
  bool exact = true;                 // every partial sum of every dot product is representable
  device_buffer<float> pristine_a, pristine_b;
  // Beyond the full reference: what the spot checks and Freivalds' check expect, which depends on A
  // and B only, drawn on first use and kept (issue 21: drawn per case, it was ~0.2 s of CPU per case
  // at 2048³, most of the slowest unit).
  const struct large_product_checks& large_checks() const;

 private:
  mutable std::once_flag large_drawn_;
  mutable std::shared_ptr<const struct large_product_checks> large_;
};
// Exact rows and elements of A·B and Freivalds' side (reference::freivalds_prepare) for an input too
// large for the full reference.
struct large_product_checks {
  std::vector<int> rows;                          // first, last and 6 seeded rows
  std::vector<std::vector<double>> row_expected;  // A·B at each of them
  std::vector<std::pair<int, int>> elements;      // 256 seeded (row, column) pairs
  std::vector<double> element_expected;
  reference::freivalds_side freivalds;
};
std::shared_ptr<const prepared_input> prepare(const shape& s, input_kind kind, std::uint64_t seed);
// The input at (shape, kind), drawn once per process and shared by every variant and configuration
// (fixtures/input_cache.hpp); its seed comes from the run's base seed, the shape and the kind.
std::shared_ptr<const prepared_input> input_for(const shape& s, input_kind kind);
// The host half of prepare() (data, reference, exactness), without a GPU: for the CPU tests.
std::shared_ptr<prepared_input> make_host_input(const shape& s, input_kind kind, std::uint64_t seed);

// Poison C (or fill it with finite_fill_byte: variant::reads_output) and fresh guard-zoned copies of A and B; on a non-blocking stream, copy A and B in
// behind a delay kernel, launch on that stream, synchronise it; check the guards of A, B and C,
// that A and B are unchanged, and compare every element: against the full reference for products
// up to 2^30 multiply-adds (exactly, or within the stated bound); beyond that with Freivalds' check
// (false pass <= 2^-22) plus exact checks of the first, last and 6 random rows and 256 elements.
// What C holds before the launch of a variant that reads it (variant::reads_output): bytes 0x7E,
// the float 8.45e37 — finite, so 0·C is 0, and far above any product of the suite's inputs
// (|C| <= 64·k for the integers, k for the reals), so an element left unwritten cannot match.
inline constexpr unsigned char finite_fill_byte = 0x7E;

check_result check_matmul(const variant& v, const matmul_config& config, const prepared_input& input,
                          const launch_context& context);

// A case's name: "SharedTiledM33N65K17B16TW16Real".
std::string inner_case_name(const variant& v, const shape& s, const matmul_config& config, input_kind kind);

// True when the last CUDA error is sticky (the context is gone for this process).
bool context_lost();

}  // namespace kc::matmul::testing
