// DV1, DV2 and OC of seed 003: the same four operations chosen per warp ((tid/32) % 4: every lane
// of a warp takes one branch) or per thread (tid % 4: every warp runs all four paths in turn).
// Each repeat writes the same value, so the result does not depend on the repeat count.
#include "kernels/access/device_helpers.cuh"
#include "kernels/access/launchers.hpp"

namespace kc::access::detail {
namespace {

__global__ void warp_no_divergence(const float* a, const float* b, float* c, std::size_t n, int repeats) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) one_of_four(warp_branch(tid), a, b, c, tid);
}

__global__ void warp_divergence(const float* a, const float* b, float* c, std::size_t n, int repeats) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) one_of_four(thread_branch(tid), a, b, c, tid);
}

// OC: DV1's body, launched with the block of scenario S1 or S2; grid = ceil(n / block), guarded
// (the seed's n / block dropped the tail: VectorAddGridRoundsDown).
__global__ void vector_add(const float* a, const float* b, float* c, std::size_t n, int repeats) {
  const std::size_t tid = global_thread();
  if (tid >= n) return;
  for (int k = 0; k < repeats; ++k) one_of_four(warp_branch(tid), a, b, c, tid);
}

}  // namespace

const void* warp_no_divergence_function() { return reinterpret_cast<const void*>(warp_no_divergence); }
const void* warp_divergence_function() { return reinterpret_cast<const void*>(warp_divergence); }
const void* vector_add_function() { return reinterpret_cast<const void*>(vector_add); }

launch_status launch_warp_no_divergence(const float* a, const float* b, float* c, std::size_t n,
                                        const access_config& config, cudaStream_t stream) {
  warp_no_divergence<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, n, config.repeats);
  return launch_status::after_launch("warp_no_divergence");
}

launch_status launch_warp_divergence(const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                                     cudaStream_t stream) {
  warp_divergence<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, n, config.repeats);
  return launch_status::after_launch("warp_divergence");
}

launch_status launch_vector_add(const float* a, const float* b, float* c, std::size_t n, const access_config& config,
                                cudaStream_t stream) {
  vector_add<<<grid_for(n, config.block), config.block, 0, stream>>>(a, b, c, n, config.repeats);
  return launch_status::after_launch("vector_add");
}

}  // namespace kc::access::detail
