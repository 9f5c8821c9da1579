// The index arithmetic of the access family (KERNELS.md §4, seed 003), callable on the host and the
// device so the CPU reference, the CPU tests and the kernels share one definition.
//
// The seed turns a 32-bit random number r into an index with r / NP, NP = 2^32 / n (integer
// division, NP kept in an unsigned int). That is uniform and in range only when n divides 2^32.
// With q = floor(2^32 / n) and s = 2^32 mod n:
//   max over r of floor(r / q) = floor((2^32 − 1) / q) = n + floor((s − 1) / q),
// which is n − 1 when s = 0 (n a power of two) and >= n for every other n: the s largest values of
// r (those >= q·n) give an index >= n, probability s / 2^32 per draw. At n = 1 the seed's NP is 2^32,
// which truncates to 0 in its unsigned int. seed_formula_index() is that formula, as written.
//
// The corrected mapping is a multiply-high: (r · n) >> 32 < n for every r (a fixed-point product
// of r / 2^32 in [0, 1) and n), and each index gets floor or ceil of 2^32 / n of the 2^32 values of r.
//
// Groups (AC3): 16 segments of 128 bytes = 512 floats. The contract is KERNELS.md §6's:
// group_count = floor(n / 512) whole groups, group g = [512·g, 512·g + 512); the last partial group
// (the n mod 512 elements past the whole groups) is never chosen, and n < 512 (no whole group) is
// refused. The seed's group count is that too; what it gets wrong is the group *number*:
// GN = r / floor(2^32 / group_count) reaches group_count (the partial group, or past n) for the
// s = 2^32 mod group_count largest values of r, whenever group_count is not a power of two. The
// corrected kernels draw the group by multiply-high, always < group_count.
//
// The reproducible twins (AC2r, AC3r) draw r from a counter-based hash of (seed, stream, counter)
// instead of cuRAND: splitmix64's finaliser applied twice (a documented, well-mixed 64-bit
// bijection), the top 32 bits kept. Thread t's draw for repeat k is draw32(seed, t, k); warp w's
// group is draw32(seed ^ group_salt, w, 0), shared by its 32 lanes.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define KC_HOST_DEVICE __host__ __device__
#else
#define KC_HOST_DEVICE
#endif

namespace kc::access {

inline constexpr std::uint32_t group_floats = 16 * (128 / 4);  // 16 segments of 128 B: 512 floats
inline constexpr std::uint32_t warp_lanes = 32;
inline constexpr std::uint64_t group_salt = 0x9E3779B97F4A7C15ull;
// The largest n the 32-bit index formulas cover.
inline constexpr std::uint64_t max_elements = 0xFFFFFFFFull;

// splitmix64's finaliser (Steele, Lea, Flood 2014): a bijection on 64-bit words.
KC_HOST_DEVICE inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

// 32 well-mixed bits for (seed, stream, counter).
KC_HOST_DEVICE inline std::uint32_t draw32(std::uint64_t seed, std::uint64_t stream, std::uint32_t counter) {
  const std::uint64_t x = mix64(seed ^ mix64(stream * 0xD1B54A32D192ED03ull + counter + 1));
  return static_cast<std::uint32_t>(x >> 32);
}

// r / 2^32 scaled to [0, n): always < n (n >= 1).
KC_HOST_DEVICE inline std::uint32_t scale_to(std::uint32_t r, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(r) * n) >> 32);
}

// The seed's NP = 2^32 / n, stored in an unsigned int as the seed stores it (0 at n = 1).
KC_HOST_DEVICE inline std::uint32_t seed_partition(std::uint64_t n) {
  return static_cast<std::uint32_t>((std::uint64_t{1} << 32) / n);
}
// The seed's index r / NP, as written (np != 0).
KC_HOST_DEVICE inline std::uint32_t seed_formula_index(std::uint32_t r, std::uint32_t np) { return r / np; }

// ---- the group geometry (KERNELS.md §6; n >= 512) ----
KC_HOST_DEVICE inline std::uint32_t group_extent(std::uint32_t /*n*/) { return group_floats; }
KC_HOST_DEVICE inline std::uint32_t group_count(std::uint32_t n) { return n / group_floats; }
KC_HOST_DEVICE inline std::uint32_t group_start(std::uint32_t group, std::uint32_t /*n*/) { return group * group_floats; }
// The first element no group covers: 512·floor(n / 512). Indices of a grouped kernel stay below it.
KC_HOST_DEVICE inline std::uint32_t whole_groups_end(std::uint32_t n) { return group_count(n) * group_floats; }

// ---- the reproducible twins ----
// AC2r: thread `thread`, repeat `repeat`.
KC_HOST_DEVICE inline std::uint32_t hashed_random_index(std::uint64_t seed, std::uint64_t thread, std::uint32_t repeat,
                                                        std::uint32_t n) {
  return scale_to(draw32(seed, thread, repeat), n);
}
// AC3r: the group of the thread's warp (32 consecutive thread ids), then a lane offset inside it.
KC_HOST_DEVICE inline std::uint32_t hashed_group_of_warp(std::uint64_t seed, std::uint64_t warp, std::uint32_t n) {
  return scale_to(draw32(seed ^ group_salt, warp, 0), group_count(n));
}
KC_HOST_DEVICE inline std::uint32_t hashed_group_index(std::uint64_t seed, std::uint64_t thread, std::uint32_t repeat,
                                                       std::uint32_t n) {
  const std::uint32_t group = hashed_group_of_warp(seed, thread / warp_lanes, n);
  return group_start(group, n) + scale_to(draw32(seed, thread, repeat), group_extent(n));
}

// ---- the four operations of DV1 / DV2 / OC ----
// 0: A+B, 1: A−B, 2: A·B, 3: A/B. One IEEE operation each (the kernels divide with __fdiv_rn), so
// the host computes bit-identical results.
KC_HOST_DEVICE inline int warp_branch(std::uint64_t thread) { return static_cast<int>((thread / warp_lanes) % 4); }
KC_HOST_DEVICE inline int thread_branch(std::uint64_t thread) { return static_cast<int>(thread % 4); }

}  // namespace kc::access
