// CPU reference for the matmul family: host-only C++ with OpenMP, independent of the GPU code.
// Row-major C (m×n) = A (m×k) · B (k×n), accumulated in double: exact for integer-valued inputs
// whose products and sums stay below 2^53 (every case the suite draws).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace kc::reference {

// Cache-blocked, OpenMP over row blocks; about 2·m·n·k / (cores · ~2 GFLOP/s).
std::vector<double> matmul(std::span<const float> a, std::span<const float> b, int m, int n, int k);
// One row / one element of A·B, for spot checks of large products.
std::vector<double> matmul_row(std::span<const float> a, std::span<const float> b, int n, int k, int row);
double matmul_element(std::span<const float> a, std::span<const float> b, int n, int k, int row, int col);

// The report's serial CPU baseline: the plain i-j-k loop in float (for the benchmark's speedups).
void matmul_serial_ijk(std::span<const float> a, std::span<const float> b, std::span<float> c, int m, int n, int k);

// Freivalds' check of C = A·B in O(vectors·(mk + kn + mn)) instead of O(mnk): for random x,
// compare C·x with A·(B·x). Entries of x are uniform over the non-zero integers in [-range, range]
// (|S| = 2·range values). If C ≠ A·B, some row d of C − A·B is non-zero and d·x = 0 has
// probability at most 1/|S| (Schwartz–Zippel, one variable of d's support drawn last), so a wrong C
// passes `vectors` independent vectors with probability at most (2·range)^-vectors. One wrong
// element is always caught (x_j ≠ 0), and NaN anywhere in C reaches C·x.
// Exact comparison: valid when A, B, C are integer-valued and |C|·range·n < 2^53.
struct freivalds_outcome {
  bool consistent = true;
  int failing_vector = -1;
  int failing_row = -1;
  double expected = 0.0;  // (A·(B·x))[row]
  double actual = 0.0;    // (C·x)[row]
};
freivalds_outcome freivalds(std::span<const float> a, std::span<const float> b, std::span<const float> c, int m, int n,
                            int k, int vectors, std::uint64_t seed, int range = 1024);

// The same check in two halves, for many C checked against one (A, B) (a sweep of configurations
// at one input): the half that costs O(vectors·(mk + kn)) — each x and A·(B·x) — depends on A and B
// only and is drawn once; each C then costs O(vectors·mn). freivalds() is the two in a row.
struct freivalds_side {
  int m = 0, n = 0;
  std::vector<std::vector<double>> x;    // per vector: n entries
  std::vector<std::vector<double>> abx;  // per vector: A·(B·x), m entries
};
freivalds_side freivalds_prepare(std::span<const float> a, std::span<const float> b, int m, int n, int k, int vectors,
                                 std::uint64_t seed, int range = 1024);
freivalds_outcome freivalds_check(const freivalds_side& side, std::span<const float> c);

}  // namespace kc::reference
