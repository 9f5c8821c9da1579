// What the conv2d suite sweeps: variant × size (ni × nj) × launch configuration (2-D block) × input
// kind, and the inputs.
#pragma once

#include "kernels/polybench/conv2d/conv2d.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace kc::polybench::conv2d::testing {

enum class input_kind {
  polybench,    // PolyBench/GPU 2DCONV's init, A[i][j] = rand() / RAND_MAX: seeded uniform reals in [0, 1)
  signed_real,  // seeded uniform reals in [-1, 1): the terms cancel, so a wrong coefficient or a
                // swapped neighbour moves b by as much as b itself
};
const char* name_of(input_kind kind);  // "Polybench", "SignedReal"

struct size_2d {
  std::size_t ni = 0;  // rows
  std::size_t nj = 0;  // columns
  bool operator==(const size_2d&) const = default;
};
void PrintTo(const size_2d& s, std::ostream* os);  // "33 x 65"


// One GoogleTest case (fixtures/suite_case.hpp).
struct conv2d_case {
  const variant* v = nullptr;
  size_2d size;
  conv2d_config config;
  input_kind input = input_kind::polybench;

  std::string name() const;  // "Conv2dDirectNi33Nj65B32x8Polybench"
  // The variant, with ".Large" past 2^22 elements (the seed's 4096²: ~0.3 s of host work per case,
  // the download and the comparison of 16.8 million points),
  // so a variant's small sizes and its heavy ones run as two processes side by side.
  std::string unit() const;
  double cost() const;  // 1 + elements in units of 2^20: quick (cost <= 2) keeps everything but 4096²
};
void PrintTo(const conv2d_case& c, std::ostream* os);

// Where unit() starts adding ".Large".
inline constexpr std::size_t large_elements = std::size_t{1} << 22;

// No interior at all (1×1, 2×2, 1×1000, 1000×1, 2×1000, 1000×2), one interior point (3×3), one row or
// column of interior (3×1000, 1000×3), 4×4, 18×18 (the interior crosses a 16-block edge by one),
// odd and prime non-squares (33×65, 65×33, 97×101), tall and wide (4096×17, 17×4096), and the seed's
// 4096×4096. The CPU reference stays cheap at every size: 9 multiply-adds per point, O(ni·nj), the
// same order as the GPU's work and the case's own copies and comparison (4096²: 0.8 s on one core of
// the build machine with the input's drawing, once per process and input, shared by the 5
// configurations); nothing is recomputed per configuration. The seed's 5000² … 9000²
// add no shape the sweep lacks (they cost 1.5–5x the memory and time of 4096² per case) and are
// left to the benchmark.
std::vector<size_2d> swept_sizes();
// The seed's 16×16, PolyBench/GPU's 32×8, 8×8, 32×32, and 1-D rows 256×1 (KERNELS.md §6).
std::vector<conv2d_config> swept_configs();

// Every size × input × configuration of the given variants, ordered variant, size, input,
// configuration (consecutive cases share a prepared input).
std::vector<conv2d_case> sweep(std::span<const variant> variants);
// The same for one variant: the sweep a known-bad row faces is the correct one's.
std::vector<conv2d_case> every_case_of(const variant& v);

// The input a, ni·nj doubles, for (kind, size, seed).
std::vector<double> make_input(input_kind kind, size_2d size, std::uint64_t seed);

}  // namespace kc::polybench::conv2d::testing
