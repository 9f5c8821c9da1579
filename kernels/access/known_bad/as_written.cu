// Seed 003's random-index kernels with its index arithmetic exactly as written (the generator
// layout is the correct variants': cuRAND XORWOW, subsequence = thread id, or warp id for AC3's
// group). What goes wrong (index_functions.hpp has the derivation):
//   NonCoalescedAsWritten   index = curand() / NP, NP = 2^32 / n: >= n with probability
//                           (2^32 mod n) / 2^32 per draw whenever n is not a power of two (n = 1,000,003:
//                           2.2e-4, ~222 threads whose last draw reads past the end).
//   SemiCoalescedAsWritten  group_count = n / 512 whole groups, as KERNELS.md §6 has it, but
//                           GN = curand() / (2^32 / group_count) reaches group_count — the partial group
//                           that is never to be chosen, or past n — for the 2^32 mod group_count largest
//                           draws, whenever group_count is not a power of two: one warp in 6.7 million
//                           at best (group_count 641). Only a chosen seed shows it (overflow_seed.cu).
#include "kernels/access/device_helpers.cuh"
#include "kernels/access/launchers.hpp"

#include <curand_kernel.h>

namespace kc::access::detail {
namespace {

__global__ void non_coalesced_as_written(const float* a, const float* b, float* c, std::size_t n, int repeats,
                                         unsigned long long seed, std::uint32_t np) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  curandState_t state;
  curand_init(seed, tid, 0, &state);
  for (int k = 0; k < repeats; ++k) {
    const std::uint32_t index = seed_formula_index(curand(&state), np);
    c[tid] = a[index] + b[index];
  }
}

__global__ void semi_coalesced_as_written(const float* a, const float* b, float* c, std::size_t n, int repeats,
                                          unsigned long long seed, std::uint32_t np_group_count,
                                          std::uint32_t np_group_size) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  curandState_t group_state, lane_state;
  curand_init(seed ^ group_salt, tid / warp_lanes, 0, &group_state);
  curand_init(seed, tid, 0, &lane_state);
  const std::uint32_t gn = curand(&group_state) / np_group_count;
  for (int k = 0; k < repeats; ++k) {
    const std::uint32_t index = curand(&lane_state) / np_group_size + gn * group_floats;
    c[tid] = a[index] + b[index];
  }
}

}  // namespace

std::string non_coalesced_as_written_constraint(std::size_t n, const access_config&) {
  if (seed_partition(n) == 0)
    return "n = " + std::to_string(n) + ": the seed's NP = 2^32 / n does not fit its unsigned int (it truncates to 0 "
           "and the kernel would divide by zero); the as-written row runs from n = 2";
  return {};
}

std::string semi_coalesced_as_written_constraint(std::size_t n, const access_config&) {
  const std::size_t groups = n / group_floats;
  if (groups == 0)
    return "n = " + std::to_string(n) + " < 512: the seed's group_count = n / 512 is 0 and its 2^32 / group_count "
           "divides by zero; the as-written row runs from n = 1024";
  if (seed_partition(groups) == 0)
    return "n = " + std::to_string(n) + ": group_count = 1 and the seed's 2^32 / group_count does not fit its unsigned "
           "int (0: a division by zero in the kernel); the as-written row runs from n = 1024";
  return {};
}

launch_status launch_non_coalesced_as_written(const float* a, const float* b, float* c, std::size_t n,
                                              const access_config& config, cudaStream_t stream) {
  non_coalesced_as_written<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, n, config.repeats, config.seed,
                                                                                   seed_partition(n));
  return launch_status::after_launch("non_coalesced_access (as written)");
}

launch_status launch_semi_coalesced_as_written(const float* a, const float* b, float* c, std::size_t n,
                                               const access_config& config, cudaStream_t stream) {
  semi_coalesced_as_written<<<grid_for(n, config.block), config.block, 0, stream>>>(
      a, b, c, n, config.repeats, config.seed, seed_partition(n / group_floats), seed_partition(group_floats));
  return launch_status::after_launch("semi_coalesced_access (as written)");
}

}  // namespace kc::access::detail
