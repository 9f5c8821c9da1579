// What the ATAX suite sweeps: variant × shape × launch configuration × input kind, and the inputs.
#pragma once

#include "kernels/polybench/atax/atax.hpp"

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace kc::polybench::atax::testing {

enum class input_kind {
  polybench,  // PolyBench's init: x[j] = j·π, A[i][j] = i·j/nx. Symmetric when nx = ny (it hides any
              // Aᵀ / A mix-up there), structured everywhere. Offered only where nx >= 2 and ny >= 2:
              // row 0 and column 0 of A and x[0] are zero, so with nx = 1 or ny = 1 y is all zeros.
  random,     // seeded uniform reals in [-1, 1) for A and x: non-symmetric, unstructured, at every shape
};
const char* name_of(input_kind kind);  // "PolyBench", "Random"

// One GoogleTest case (fixtures/suite_case.hpp).
struct atax_case {
  const variant* v = nullptr;
  atax_shape s;
  atax_config config;
  input_kind input = input_kind::random;

  // "AtaxTwoKernelsNx33Ny65B96Random", "AtaxCublasNx33Ny65PolyBench" (no block for a library call)
  std::string name() const;
  // The variant, with ".Large" where A has more than 2^22 elements (the seed's 4096 x 4096: 128 MiB
  // of A per copy), so a variant's small shapes and its heavy one run as two processes side by side.
  std::string unit() const;
  // 1 + A's elements in units of 2^20: gpu-quick (cost <= 2) keeps every shape but the seed's 4096².
  double cost() const;
};
void PrintTo(const atax_case& c, std::ostream* os);

// Sizes: tiny (1, 2, 3), a single row and a single column (1 x 1000, 1000 x 1), odd and prime
// non-square shapes both ways round (33 x 65, 65 x 33, 97 x 101, 255 x 257), tall and wide
// (4096 x 17, 17 x 4096), and the seed's 4096 x 4096. The CPU reference is 2·nx·ny multiply-adds
// (plus as many for the magnitudes), in long double: ~0.1 s at 4096², once per (shape, input) per
// process, against a GPU that moves 2 × 128 MiB of A per launch — cheap. The seed's larger sizes
// (up to 12000²) add no shape the sweep lacks.
std::vector<atax_shape> swept_shapes();
// PolyBench's init where it is not all zeros (nx, ny >= 2), then Random everywhere.
std::vector<input_kind> inputs_at(const atax_shape& s);
// Blocks the hand-written kernels are swept with: the seed's BLOCK_SIZE 256, 32 (one warp), 128,
// 1024 (the device's largest) and 96 (not a power of two).
inline constexpr int swept_blocks[] = {32, 96, 128, 256, 1024};
// A library row runs block 0 (library-chosen); the others every swept block.
std::vector<atax_config> swept_configs(const variant& v);

// Every variant × shape × input × configuration, ordered variant, shape, input, configuration
// (consecutive cases share a prepared input).
std::vector<atax_case> sweep(std::span<const variant> variants);
// The same for one variant (the sweep a known-bad row faces).
std::vector<atax_case> every_case_of(const variant& v);

struct atax_input {
  std::vector<double> a;  // nx·ny, row-major
  std::vector<double> x;  // ny
};
atax_input make_input(input_kind kind, const atax_shape& s, std::uint64_t seed);

}  // namespace kc::polybench::atax::testing
