#include "grading/divergence_submission.hpp"

#include "grading/submission_library.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace kc::grading {
namespace {

using divergence_entry = const char* (*)(const float*, const float*, float*, size_t, int, int, cudaStream_t);

// The launcher's own constraint (access::validate checks n, the device's block limit and the grid):
// only a declared block is asked for.
std::string undeclared_block(std::size_t, const access::access_config& config) {
  const std::vector<int>& blocks = divergence_blocks();
  if (std::find(blocks.begin(), blocks.end(), config.block) != blocks.end()) return {};
  return "block " + std::to_string(config.block) + " is not one the submission declares";
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
  v.constraint = undeclared_block;
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

}  // namespace kc::grading
