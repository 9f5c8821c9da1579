// KNOWN-BAD. Bugs that gave right values in every case of the suite before issue 6, each caught by
// a check that issue 6 added. They are K3 (seed 000's sequential addressing) with one thing wrong,
// so that the only bug is the one under test, plus one atomics-based n -> 1 reduction.
//
//   IgnoresStream          launches on the default stream, not the one it is given: it runs before
//                          the caller's input copy (queued on the caller's stream) has landed.
//                          Caught by: checks launch on a non-blocking stream behind a delayed copy.
//   ReadsPastEndDiscarded  threads past n load in[n] (one past the end) and discard the value.
//                          Caught by: memcheck on exact-size buffers (a guard zone hides it).
//   SkipsEqualWrite        writes its output only if it differs from what is there: it reads
//                          memory nobody wrote. Caught by: initcheck on unpoisoned buffers.
//   ZeroesInput            zeroes each input element after loading it, though its registry row
//                          says the input is preserved. Caught by: the input-unchanged check.
//   CarryIntoNextChunk     in place: block b also stores its sum at the head of block b+1's chunk
//                          (a "carry" slot), which block b+1 reads when it starts. Right while both
//                          blocks are resident at once (all blocks at small n); wrong on some runs
//                          once the grid runs in many waves (caught on an H100 at n = 873,283,
//                          block 32). The schedule perturbation (KCONFORM_FREE_SMS) did not expose
//                          it (docs/architecture.md). A race through global memory, which no
//                          compute-sanitizer tool reports.
//   AtomicFloatIndexGuard  n -> 1 with atomicAdd; its bounds check compares float(i) < float(n),
//                          which drops the last elements once n > 2^24 is not a float (2^26 + 1
//                          loses 3). Caught by: dense non-zero exact inputs at 2^26 + 1 (the old
//                          integer input was 77.5% zeros there, and the real-input bound exceeds
//                          the dropped values).
#include "kernels/reduction/device_helpers.cuh"
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {
namespace {

enum class k3_bug { ignores_stream, reads_past_end, skips_equal_write, zeroes_input, carry_into_next_chunk };

template <k3_bug Bug>
__global__ void k3_with_bug(float* in, std::size_t n, float* out) {
  extern __shared__ float partial[];
  const std::size_t i = chunk_start(blockDim.x) + threadIdx.x;
  float v;
  if constexpr (Bug == k3_bug::reads_past_end) {
    const float loaded = in[i < n ? i : n];  // one past the end for every thread beyond n
    v = i < n ? loaded : 0.0f;
  } else {
    v = load_or_zero(in, i, n);
  }
  if constexpr (Bug == k3_bug::zeroes_input) {
    if (i < n) in[i] = 0.0f;
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    if constexpr (Bug == k3_bug::carry_into_next_chunk) {
      const std::size_t carry_slot = chunk_start(blockDim.x) + blockDim.x;  // first element of block b+1
      if (carry_slot < n) in[carry_slot] = partial[0];
    }
    if constexpr (Bug == k3_bug::skips_equal_write) {
      if (out[blockIdx.x] != partial[0]) out[blockIdx.x] = partial[0];
    } else {
      out[blockIdx.x] = partial[0];
    }
  }
}

template <k3_bug Bug>
launch_status launch_k3_with_bug(float* in, float* out, const pass_geometry& g, cudaStream_t stream, const char* name) {
  k3_with_bug<Bug><<<static_cast<unsigned>(g.grid), g.block, g.block * sizeof(float), stream>>>(in, g.n, out);
  return launch_status::after_launch(name);
}

__global__ void atomic_sum_float_guard(const float* in, std::size_t n, float* result) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float v = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       static_cast<float>(i) < static_cast<float>(n); i += stride)
    v += in[i];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) atomicAdd(result, v);
}

}  // namespace

launch_status launch_sequential_default_stream(float* in, float* out, const pass_geometry& g, cudaStream_t) {
  return launch_k3_with_bug<k3_bug::ignores_stream>(in, out, g, nullptr, "k3 on the default stream");
}
launch_status launch_sequential_reads_past_end(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  return launch_k3_with_bug<k3_bug::reads_past_end>(in, out, g, s, "k3 reading in[n]");
}
launch_status launch_sequential_skips_equal_write(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  return launch_k3_with_bug<k3_bug::skips_equal_write>(in, out, g, s, "k3 writing only changed outputs");
}
launch_status launch_sequential_zeroes_input(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  return launch_k3_with_bug<k3_bug::zeroes_input>(in, out, g, s, "k3 zeroing its input");
}

launch_status launch_sequential_carry_into_next_chunk(float* in, float* out, const pass_geometry& g, cudaStream_t s) {
  return launch_k3_with_bug<k3_bug::carry_into_next_chunk>(in, out, g, s, "k3 writing a carry into the next chunk");
}

std::size_t atomic_scratch(const variant&, std::size_t, const reduce_config&) { return 1; }

namespace {
std::size_t atomic_blocks(std::size_t n) { return std::min<std::size_t>((n + 255) / 256, 132 * 8); }
}  // namespace

// Items a thread adds in sequence, the 5-step warp tree, then one atomicAdd per warp into the
// same float, in any order: up to 8 per block in sequence.
std::size_t atomic_summation_depth(std::size_t n) {
  const std::size_t threads = atomic_blocks(n) * 256;
  return (n + threads - 1) / threads + 5 + 8 * atomic_blocks(n);
}

reduce_outcome atomic_float_index_guard(const variant&, float* a, std::size_t n, float* scratch, std::size_t scratch_elements,
                                        const reduce_config& config, cudaStream_t stream, const pass_observer*) {
  reduce_outcome outcome;
  if (n == 0) {
    outcome.status = launch_status::refused("n = 0: there is nothing to reduce (n must be >= 1)");
    return outcome;
  }
  if (config.block != 0 || config.grid != 0 || scratch_elements < 1) {
    outcome.status = launch_status::refused("this reduction chooses its own launch and needs 1 float of scratch");
    return outcome;
  }
  if (const cudaError_t e = cudaMemsetAsync(scratch, 0, sizeof(float), stream); e != cudaSuccess) {
    outcome.status = launch_status::failed(e, "cudaMemsetAsync");
    return outcome;
  }
  const std::size_t blocks = atomic_blocks(n);
  atomic_sum_float_guard<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(a, n, scratch);
  outcome.status = launch_status::after_launch("atomic_sum_float_guard");
  outcome.result = scratch;
  return outcome;
}

}  // namespace kc::reduction::detail
