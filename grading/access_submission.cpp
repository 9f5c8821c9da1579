#include "grading/access_submission.hpp"

#include "grading/submission_library.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace kc::grading {
namespace {

using plain_entry = const char* (*)(const float*, const float*, float*, size_t, int, int, cudaStream_t);
using seeded_entry = const char* (*)(const float*, const float*, float*, size_t, int, int, unsigned long long,
                                     cudaStream_t);

const std::vector<int>& blocks_from_traits() {
  static const std::vector<int> blocks = traits_ints("blocks");
  return blocks;
}

// The row's own rule beyond validate()'s (whole warps, n >= 512 for groups, device limits): the block
// must be one the submission declares.
std::string declared_block_only(std::size_t, const access::access_config& config) {
  const std::vector<int>& blocks = blocks_from_traits();
  if (std::find(blocks.begin(), blocks.end(), config.block) == blocks.end())
    return "block " + std::to_string(config.block) + " is not one the submission declares";
  return {};
}

launch_status launch_coalesced(const float* a, const float* b, float* c, std::size_t n, const access::access_config& config,
                               cudaStream_t stream) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<plain_entry>("kc_access_coalesced", &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(a, b, c, n, config.block, config.repeats, stream), "kc_access_coalesced");
}

template <const char* Name>
launch_status launch_seeded(const float* a, const float* b, float* c, std::size_t n, const access::access_config& config,
                            cudaStream_t stream) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<seeded_entry>(Name, &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(a, b, c, n, config.block, config.repeats, config.seed, stream), Name);
}

constexpr char random_entry[] = "kc_access_random";
constexpr char grouped_entry[] = "kc_access_grouped";

std::vector<access::variant> build_rows() {
  if (!submission_traits()) return {};
  using access::body;
  using access::variant;
  const auto row = [](std::string_view name, std::string_view id, std::string_view technique, body computes,
                      bool whole_warps, access::launch_fn launch) {
    variant v{name, id, "003", technique};
    v.computes = computes;
    v.whole_warps = whole_warps;
    v.launch = launch;
    v.constraint = declared_block_only;
    return v;
  };
  return {row("SubmissionCoalesced", "AC1", "the submission's kc_access_coalesced", body::coalesced, false, launch_coalesced),
          row("SubmissionRandom", "AC2", "the submission's kc_access_random", body::curand_random, false,
              launch_seeded<random_entry>),
          row("SubmissionGrouped", "AC3", "the submission's kc_access_grouped", body::curand_group, true,
              launch_seeded<grouped_entry>)};
}

}  // namespace

std::span<const access::variant> access_submission() {
  static const std::vector<access::variant> rows = build_rows();
  return rows;
}

const std::vector<int>& declared_access_blocks() { return blocks_from_traits(); }

int default_access_block() {
  const std::vector<int>& blocks = blocks_from_traits();
  return blocks.empty() ? 1024 : blocks.front();
}

}  // namespace kc::grading
