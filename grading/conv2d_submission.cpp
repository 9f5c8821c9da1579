#include "grading/conv2d_submission.hpp"

#include "grading/submission_library.hpp"

#include <algorithm>
#include <string>

namespace kc::grading {
namespace {

namespace conv2d = polybench::conv2d;

using conv2d_entry = const char* (*)(const double*, double*, int, int, int, int, cudaStream_t);

std::vector<conv2d::conv2d_config> read_configs() {
  std::vector<conv2d::conv2d_config> out;
  for (const auto& [block_x, block_y] : traits_int_pairs("configs")) out.push_back({block_x, block_y});
  return out;
}

// The row's own rule beyond conv2d::validate's (sizes, int range, the device's block and grid
// limits): only a declared block is asked for.
std::string undeclared_block(std::size_t, std::size_t, const conv2d::conv2d_config& config) {
  const std::vector<conv2d::conv2d_config>& declared = declared_conv2d_configs();
  if (std::find(declared.begin(), declared.end(), config) != declared.end()) return {};
  return config.describe() + " is not a block the submission declares";
}

// validate() has accepted (ni, nj, config): both fit in int.
launch_status launch_submission(const double* a, double* b, std::size_t ni, std::size_t nj,
                                const conv2d::conv2d_config& config, cudaStream_t stream) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<conv2d_entry>("kc_conv2d", &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(a, b, static_cast<int>(ni), static_cast<int>(nj), config.block_x, config.block_y, stream),
                            "kc_conv2d");
}

std::vector<conv2d::variant> build_row() {
  if (!submission_traits()) return {};
  conv2d::variant v{"Submission", "Conv2D", "004", "the submission under grading"};
  v.launch = launch_submission;
  v.constraint = undeclared_block;
  return {v};
}

}  // namespace

const std::vector<conv2d::conv2d_config>& declared_conv2d_configs() {
  static const std::vector<conv2d::conv2d_config> configs = read_configs();
  return configs;
}

conv2d::conv2d_config default_conv2d_config() {
  const std::vector<conv2d::conv2d_config>& configs = declared_conv2d_configs();
  return configs.empty() ? conv2d::seed_block : configs.front();
}

std::span<const conv2d::variant> conv2d_submission() {
  static const std::vector<conv2d::variant> row = build_row();
  return row;
}

}  // namespace kc::grading
