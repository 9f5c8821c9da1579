#include "grading/divergence_submission.hpp"

#include "grading/submission_library.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace kc::grading {
namespace {

using divergence_entry = const char* (*)(const float*, const float*, float*, size_t, int, int, cudaStream_t);

// The launcher's own constraint (access::validate checks n, the device's block limit and the grid):
// only a declared block or one of the grader's is asked for.
std::string ungraded_block(std::size_t, const access::access_config& config) {
  for (const std::vector<int>* blocks : {&divergence_blocks(), &grader_divergence_blocks()})
    if (std::find(blocks->begin(), blocks->end(), config.block) != blocks->end()) return {};
  return "block " + std::to_string(config.block) + " is neither one the submission declares nor one the grader adds";
}

launch_status call_entry(const char* name, const float* a, const float* b, float* c, std::size_t n,
                         const access::access_config& config, cudaStream_t stream) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<divergence_entry>(name, &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(a, b, c, n, config.block, config.repeats, stream), name);
}

launch_status launch_no_divergence(const float* a, const float* b, float* c, std::size_t n,
                                   const access::access_config& config, cudaStream_t stream) {
  return call_entry("kc_warp_no_divergence", a, b, c, n, config, stream);
}

launch_status launch_divergence(const float* a, const float* b, float* c, std::size_t n,
                                const access::access_config& config, cudaStream_t stream) {
  return call_entry("kc_warp_divergence", a, b, c, n, config, stream);
}

std::vector<access::variant> build_row(bool by_warp) {
  if (!submission_traits()) return {};
  access::variant v{};
  v.name = "Submission";
  v.catalog_id = by_warp ? "DV1" : "DV2";
  v.seed = "student";
  v.technique = by_warp ? "the submission's kc_warp_no_divergence: op by (i/32) % 4"
                        : "the submission's kc_warp_divergence: op by i % 4";
  v.computes = by_warp ? access::body::branch_by_warp : access::body::branch_by_thread;
  v.launch = by_warp ? launch_no_divergence : launch_divergence;
  v.constraint = ungraded_block;
  return {v};
}

}  // namespace

std::span<const access::variant> warp_no_divergence_submission() {
  static const std::vector<access::variant> row = build_row(true);
  return row;
}

std::span<const access::variant> warp_divergence_submission() {
  static const std::vector<access::variant> row = build_row(false);
  return row;
}

const std::vector<int>& divergence_blocks() {
  static const std::vector<int> blocks = traits_ints("blocks");
  return blocks;
}

int default_divergence_block() { return divergence_blocks().empty() ? 256 : divergence_blocks().front(); }

// The declared blocks hide any dependence of C on the block that they all share: a kernel taking the
// op from threadIdx.x instead of i = blockDim.x · blockIdx.x + threadIdx.x is exact at every block
// that is a multiple of 128 (DV1) or of 4 (DV2), where each block starts a new op cycle. The grader's
// blocks, with B the block and block 1 starting at i = B (every swept n >= 1000 has a block 1):
//   DV1 op = (threadIdx.x / 32) % 4, the warp counted within the block: wrong whenever B % 128 != 0
//     (at thread t of block 1 the op is ((B % 128 + t) / 32) % 4 against (t / 32) % 4: they differ at
//     t = 0 when B % 128 >= 32, else at t = 32 − B % 32): wrong at 96 and 97.
//   DV1 op from a global warp id blockIdx.x · (blockDim.x / 32) + threadIdx.x / 32 (warps per block
//     rounded down): right at every whole-warp block, wrong at 97 (element 128 is counted warp 3).
//   DV1 op = blockIdx.x % 4 (a block taken for a warp): right only at B = 32; wrong at 96 and 97.
//   DV2 op = threadIdx.x % 4: wrong whenever B % 4 != 0, so at 97 (element 97 takes op 0, not 1); 96
//     hides it, which is why one block is odd. 100 and 160 would not do: both are multiples of 4.
// Two blocks rather than 97 alone: 96 is three whole warps, so which of the two fails tells the
// student whether the op restarts per block (both) or rounds a block to whole warps (97 only). Both
// are below 128, so the smallest swept sizes past one block (n = 1000, 1535) already show it, and
// neither asks more of a kernel (launch bounds, shared memory) than the common blocks 128 and 256.
const std::vector<int>& grader_divergence_blocks() {
  static const std::vector<int> blocks = [] {
    std::vector<int> out;
    const std::vector<int>& declared = divergence_blocks();
    for (const int block : {96, 97})
      if (std::find(declared.begin(), declared.end(), block) == declared.end()) out.push_back(block);
    return out;
  }();
  return blocks;
}

}  // namespace kc::grading
