// CPU references for the access family (KERNELS.md §4, seed 003): host-only C++ with OpenMP, shaped
// like the launchers (inputs a, b of n floats, output c of n floats). Every output is one IEEE float
// operation on two inputs (+, -, *, / round to nearest even on the host as on the device, where
// the kernels divide with __fdiv_rn), so the comparison is bitwise exact. The random-index twins
// replay the kernels' index function (kernels/access/index_functions.hpp) for the last repeat, whose
// value is the one C keeps.
#pragma once

#include <cstdint>
#include <span>

namespace kc::reference {

// AC1: c[i] = a[i] + b[i].
void access_coalesced(std::span<const float> a, std::span<const float> b, std::span<float> c);
// AC2r: c[i] = a[j] + b[j], j = hashed_random_index(seed, i, repeats - 1, n).
void access_hashed_random(std::span<const float> a, std::span<const float> b, std::span<float> c, std::uint64_t seed,
                          int repeats);
// AC3r: j = hashed_group_index(seed, i, repeats - 1, n).
void access_hashed_group(std::span<const float> a, std::span<const float> b, std::span<float> c, std::uint64_t seed,
                         int repeats);
// DV1 and OC: operation (i / 32) % 4 (0: a+b, 1: a-b, 2: a*b, 3: a/b).
void access_branch_by_warp(std::span<const float> a, std::span<const float> b, std::span<float> c);
// DV2: operation i % 4.
void access_branch_by_thread(std::span<const float> a, std::span<const float> b, std::span<float> c);

// The four operations, as the kernels apply them.
float access_operation(int branch, float a, float b);

}  // namespace kc::reference
