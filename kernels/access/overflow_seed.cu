// The adversarial-seed search behind the access suite's "overflow seed" cases (issue 9 §2/§6).
//
// The seed's AC3 draws a warp's group as GN = r / floor(2^32 / G) (G = floor(n / 512) groups). For
// the s = 2^32 mod G largest values of r that is G itself: one past the last whole group, i.e. the
// never-chosen partial group or past the end of the array. With G = 641 (a divisor of 2^32 + 1, so
// s = 640, the largest remainder any G below 6.7 million has) one draw in 6.7 million overflows:
// no random seed would ever show it. So the suite *chooses* the seed: the first one, from a start
// value, for which warp 0's group generator — curand_init(seed ^ group_salt, 0, 0), the layout of
// every cuRAND AC3 kernel here — draws such an r first. Any correct kernel (multiply-high) stays in
// range on that seed too; the seed's formula reads the partial group with all 32 lanes, 100 times.
// Searching costs one curand_init with subsequence 0 (no skip-ahead) per candidate: 2^24 candidates
// per launch, a few milliseconds each.
#include "kernels/access/launchers.hpp"

#include <curand_kernel.h>

namespace kc::access {
namespace {

__global__ void search_group_overflow(unsigned long long start, std::uint32_t threshold, unsigned long long* found) {
  const unsigned long long candidate = start + blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  curandState_t state;
  curand_init(candidate ^ group_salt, 0, 0, &state);
  if (curand(&state) >= threshold) atomicMin(found, candidate);
}

}  // namespace

std::optional<std::uint64_t> find_group_overflow_seed(std::uint32_t groups, std::uint64_t start, std::uint64_t limit,
                                                      cudaStream_t stream) {
  if (groups == 0) return std::nullopt;
  const std::uint64_t per_group = (std::uint64_t{1} << 32) / groups;
  const std::uint64_t threshold = per_group * groups;  // r >= this: r / per_group == groups
  if (threshold > 0xFFFFFFFFull) return std::nullopt;   // G divides 2^32: the formula never overflows
  constexpr unsigned block = 256;
  constexpr std::uint64_t per_launch = std::uint64_t{1} << 24;
  unsigned long long* found = nullptr;
  if (cudaMalloc(&found, sizeof(unsigned long long)) != cudaSuccess) return std::nullopt;
  std::optional<std::uint64_t> seed;
  for (std::uint64_t first = start; first - start < limit && !seed; first += per_launch) {
    const unsigned long long none = ~0ull;
    if (cudaMemcpyAsync(found, &none, sizeof none, cudaMemcpyHostToDevice, stream) != cudaSuccess) break;
    search_group_overflow<<<static_cast<unsigned>(per_launch / block), block, 0, stream>>>(
        first, static_cast<std::uint32_t>(threshold), found);
    unsigned long long result = none;
    if (cudaMemcpyAsync(&result, found, sizeof result, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
        cudaStreamSynchronize(stream) != cudaSuccess)
      break;
    if (result != none) seed = result;
  }
  (void)cudaFree(found);
  return seed;
}

}  // namespace kc::access
