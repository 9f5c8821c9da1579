#include "grading/atax_submission.hpp"

#include "grading/contract/kconform_atax_submission.h"
#include "grading/submission_library.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace kc::grading {
namespace {

namespace atax = polybench::atax;

// kc_atax's type, from the contract itself: a header change that the grader missed fails to build.
using atax_entry = decltype(&kc_atax);

// The row's own rule beyond atax::validate's (a 1-D block the device allows, a grid that fits):
// only the declared blocks are asked for.
std::string declared_block_only(const atax::atax_shape&, const atax::atax_config& config, const device_limits&) {
  const std::vector<int>& blocks = atax_declared_blocks();
  if (std::find(blocks.begin(), blocks.end(), config.block) != blocks.end()) return {};
  return config.describe() + " is not a block the submission declares";
}

launch_status launch_submission(const double* a, const double* x, double* tmp, double* y, const atax::atax_shape& s,
                                const atax::atax_config& config, const atax::launch_context& context) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<atax_entry>("kc_atax", &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(a, x, tmp, y, s.nx, s.ny, config.block, context.stream), "kc_atax");
}

std::vector<atax::variant> build_row() {
  if (!submission_traits()) return {};
  atax::variant v{};
  v.name = "Submission";
  v.catalog_id = "student";
  v.seed = "004";
  v.technique = "the submission under grading";
  v.launch = launch_submission;
  v.constraint = declared_block_only;
  return {v};
}

}  // namespace

const std::vector<int>& atax_declared_blocks() {
  static const std::vector<int> blocks = traits_ints("blocks");
  return blocks;
}

std::span<const atax::variant> atax_submission() {
  static const std::vector<atax::variant> row = build_row();
  return row;
}

atax::atax_config default_atax_config() {
  const std::vector<int>& blocks = atax_declared_blocks();
  return blocks.empty() ? atax::atax_config{} : atax::atax_config{blocks.front()};
}

}  // namespace kc::grading
