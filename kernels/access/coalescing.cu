// AC1–AC3 of seed 003 and the reproducible twins AC2r / AC3r. Each thread repeats its body
// `repeats` times (a runtime count, so the loop cannot be folded at compile time) and writes C[tid]
// every time; the last repeat's value stays. Threads past n return (the seed launched exact
// multiples of 1024 and had no guard).
#include "kernels/access/device_helpers.cuh"
#include "kernels/access/launchers.hpp"

#include <curand_kernel.h>

namespace kc::access::detail {
namespace {

__global__ void full_coalesced_access(const float* a, const float* b, float* c, std::size_t n, int repeats) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) c[tid] = a[tid] + b[tid];
}

// AC2: per-thread XORWOW, subsequence = thread id (the seed's generator layout); index by
// multiply-high instead of the seed's r / (2^32 / n), which can reach n (index_functions.hpp).
__global__ void non_coalesced_access(const float* a, const float* b, float* c, std::uint32_t n, int repeats,
                                     unsigned long long seed) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  curandState_t state;
  curand_init(seed, tid, 0, &state);
  for (int k = 0; k < repeats; ++k) {
    const std::uint32_t j = scale_to(curand(&state), n);
    c[tid] = a[j] + b[j];
  }
}

// AC3: the group generator's subsequence is the warp number, so all 32 lanes draw the same group;
// the lane generator's is the thread id. floor(n / 512) whole groups, drawn by multiply-high
// (index_functions.hpp); validate() refuses n < 512.
__global__ void semi_coalesced_access(const float* a, const float* b, float* c, std::uint32_t n, int repeats,
                                      unsigned long long seed) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  curandState_t group_state, lane_state;
  curand_init(seed ^ group_salt, tid / warp_lanes, 0, &group_state);
  curand_init(seed, tid, 0, &lane_state);
  const std::uint32_t start = group_start(scale_to(curand(&group_state), group_count(n)), n);
  const std::uint32_t extent = group_extent(n);
  for (int k = 0; k < repeats; ++k) {
    const std::uint32_t j = start + scale_to(curand(&lane_state), extent);
    c[tid] = a[j] + b[j];
  }
}

__global__ void non_coalesced_hashed(const float* a, const float* b, float* c, std::uint32_t n, int repeats,
                                     unsigned long long seed) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) {
    const std::uint32_t j = hashed_random_index(seed, tid, static_cast<std::uint32_t>(k), n);
    c[tid] = a[j] + b[j];
  }
}

__global__ void semi_coalesced_hashed(const float* a, const float* b, float* c, std::uint32_t n, int repeats,
                                      unsigned long long seed) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  const std::uint32_t start = group_start(hashed_group_of_warp(seed, tid / warp_lanes, n), n);
  const std::uint32_t extent = group_extent(n);
  for (int k = 0; k < repeats; ++k) {
    const std::uint32_t j = start + scale_to(draw32(seed, tid, static_cast<std::uint32_t>(k)), extent);
    c[tid] = a[j] + b[j];
  }
}

}  // namespace

const void* full_coalesced_access_function() { return reinterpret_cast<const void*>(full_coalesced_access); }
const void* non_coalesced_access_function() { return reinterpret_cast<const void*>(non_coalesced_access); }
const void* semi_coalesced_access_function() { return reinterpret_cast<const void*>(semi_coalesced_access); }
const void* non_coalesced_hashed_function() { return reinterpret_cast<const void*>(non_coalesced_hashed); }
const void* semi_coalesced_hashed_function() { return reinterpret_cast<const void*>(semi_coalesced_hashed); }

launch_status launch_full_coalesced(const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                                    cudaStream_t stream) {
  full_coalesced_access<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, n, config.repeats);
  return launch_status::after_launch("full_coalesced_access");
}

launch_status launch_non_coalesced(const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                                   cudaStream_t stream) {
  non_coalesced_access<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, static_cast<std::uint32_t>(n),
                                                                               config.repeats, config.seed);
  return launch_status::after_launch("non_coalesced_access");
}

launch_status launch_semi_coalesced(const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                                    cudaStream_t stream) {
  semi_coalesced_access<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, static_cast<std::uint32_t>(n),
                                                                                config.repeats, config.seed);
  return launch_status::after_launch("semi_coalesced_access");
}

launch_status launch_non_coalesced_hashed(const float* a, const float* b, float* c, std::size_t n,
                                          const access_config& config, cudaStream_t stream) {
  non_coalesced_hashed<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, static_cast<std::uint32_t>(n),
                                                                               config.repeats, config.seed);
  return launch_status::after_launch("non_coalesced_hashed");
}

launch_status launch_semi_coalesced_hashed(const float* a, const float* b, float* c, std::size_t n,
                                           const access_config& config, cudaStream_t stream) {
  semi_coalesced_hashed<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, static_cast<std::uint32_t>(n),
                                                                                config.repeats, config.seed);
  return launch_status::after_launch("semi_coalesced_hashed");
}

}  // namespace kc::access::detail
