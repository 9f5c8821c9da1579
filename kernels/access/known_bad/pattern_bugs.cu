// Known-bad rows that break the pattern rather than the index arithmetic:
//   SemiCoalescedGroupPerLane       the group generator seeded per thread, not per warp: each lane
//                                   picks its own group (caught by the one-group-per-warp property).
//   WarpNoDivergenceOpsSwapped /    branches 1 and 2 swapped (A·B where A−B belongs, and back):
//   WarpDivergenceOpsSwapped        caught by the exact reference.
//   VectorAddGridRoundsDown         the seed's grid = n / block (no ceil): the tail of n mod block
//                                   elements is never written (caught by the poison).
#include "kernels/access/device_helpers.cuh"
#include "kernels/access/launchers.hpp"

#include <curand_kernel.h>

namespace kc::access::detail {
namespace {

__global__ void semi_coalesced_group_per_lane(const float* a, const float* b, float* c, std::uint32_t n, int repeats,
                                              unsigned long long seed) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  curandState_t group_state, lane_state;
  curand_init(seed ^ group_salt, tid, 0, &group_state);  // bug: subsequence tid, not tid / 32
  curand_init(seed, tid, 0, &lane_state);
  const std::uint32_t start = group_start(scale_to(curand(&group_state), group_count(n)), n);
  const std::uint32_t extent = group_extent(n);
  for (int k = 0; k < repeats; ++k) {
    const std::uint32_t j = start + scale_to(curand(&lane_state), extent);
    c[tid] = a[j] + b[j];
  }
}

__device__ __forceinline__ int swap_one_and_two(int branch) { return branch == 1 ? 2 : branch == 2 ? 1 : branch; }

__global__ void warp_no_divergence_ops_swapped(const float* a, const float* b, float* c, std::size_t n, int repeats) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) one_of_four(swap_one_and_two(warp_branch(tid)), a, b, c, tid);
}

__global__ void warp_divergence_ops_swapped(const float* a, const float* b, float* c, std::size_t n, int repeats) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) one_of_four(swap_one_and_two(thread_branch(tid)), a, b, c, tid);
}

__global__ void vector_add_unguarded(const float* a, const float* b, float* c, std::size_t, int repeats) {
  const std::size_t tid = global_thread();
  for (int k = 0; k < repeats; ++k) one_of_four(warp_branch(tid), a, b, c, tid);
}

}  // namespace

std::string grid_rounds_down_constraint(std::size_t n, const access_config& config) {
  if (n < static_cast<std::size_t>(config.block))
    return "n = " + std::to_string(n) + " < block " + std::to_string(config.block) +
           ": the seed's grid n / block is 0 blocks (nothing would run)";
  return {};
}

launch_status launch_semi_coalesced_group_per_lane(const float* a, const float* b, float* c, std::size_t n,
                                                   const access_config& config, cudaStream_t stream) {
  semi_coalesced_group_per_lane<<<grid_for(n, config.block), config.block, 0, stream>>>(
      a, b, c, static_cast<std::uint32_t>(n), config.repeats, config.seed);
  return launch_status::after_launch("semi_coalesced_access (group per lane)");
}

launch_status launch_warp_no_divergence_ops_swapped(const float* a, const float* b, float* c, std::size_t n,
                                                    const access_config& config, cudaStream_t stream) {
  warp_no_divergence_ops_swapped<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, n, config.repeats);
  return launch_status::after_launch("warp_no_divergence (ops swapped)");
}

launch_status launch_warp_divergence_ops_swapped(const float* a, const float* b, float* c, std::size_t n,
                                                 const access_config& config, cudaStream_t stream) {
  warp_divergence_ops_swapped<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, n, config.repeats);
  return launch_status::after_launch("warp_divergence (ops swapped)");
}

launch_status launch_vector_add_grid_rounds_down(const float* a, const float* b, float* c, std::size_t n,
                                                 const access_config& config, cudaStream_t stream) {
  const std::size_t grid = n / static_cast<std::size_t>(config.block);  // the seed's numBlocks(data_size / NTB)
  vector_add_unguarded<<<grid, config.block, 0, stream>>>(a, b, c, n, config.repeats);
  return launch_status::after_launch("vector_add (grid n / block)");
}

}  // namespace kc::access::detail
