#include "grading/matmul_submission.hpp"

#include "grading/submission_library.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kc::grading {
namespace {

using matmul_entry = const char* (*)(const float*, const float*, float*, int, int, int, int, int, cudaStream_t);

struct declared {
  int block_dims = 2;
  bool reads_c = false;
  std::vector<matmul::matmul_config> configs;
};

const declared& declared_traits() {
  static const declared d = [] {
    declared out;
    const std::optional<json::value>& traits = submission_traits();
    if (!traits) return out;
    out.block_dims = traits_int(*traits, "block_dims", 2);
    out.reads_c = traits_int(*traits, "reads_c", 0) != 0;
    for (const auto& [block, tile_width] : traits_int_pairs("configs")) out.configs.push_back({block, tile_width});
    return out;
  }();
  return d;
}

std::vector<matmul::matmul_config> submission_configs(const matmul::shape&) { return declared_traits().configs; }

launch_status validate_submission(const matmul::shape& s, const matmul::matmul_config& config, const device_limits& limits) {
  const declared& d = declared_traits();
  if (std::find(d.configs.begin(), d.configs.end(), config) == d.configs.end())
    return launch_status::refused("configuration " + config.describe() + " is not one the submission declares");
  const long long threads = d.block_dims == 2 ? static_cast<long long>(config.block) * config.block : config.block;
  if (threads > limits.max_threads_per_block)
    return launch_status::refused("configuration " + config.describe() + " needs " + std::to_string(threads) +
                                  " threads per block; this device allows " + std::to_string(limits.max_threads_per_block));
  if (s.m < 1 || s.n < 1 || s.k < 1) return launch_status::refused("every dimension must be >= 1: " + s.describe());
  return launch_status::ok();
}

launch_status launch_submission(const float* a, const float* b, float* c, const matmul::shape& s,
                                const matmul::matmul_config& config, const matmul::launch_context& context) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<matmul_entry>("kc_matmul", &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(a, b, c, s.m, s.n, s.k, config.block, config.tile_width, context.stream), "kc_matmul");
}

std::vector<matmul::variant> build_row() {
  if (!submission_traits()) return {};
  matmul::variant v{"Submission", "student", "the submission under grading"};
  v.validate = validate_submission;
  v.launch_kernel = launch_submission;
  v.configs = submission_configs;
  v.reads_output = declared_traits().reads_c;
  return {v};
}

}  // namespace

std::span<const matmul::variant> matmul_submission() {
  static const std::vector<matmul::variant> row = build_row();
  return row;
}

matmul::matmul_config default_matmul_config() {
  const std::vector<matmul::matmul_config>& configs = declared_traits().configs;
  return configs.empty() ? matmul::matmul_config{} : configs.front();
}

}  // namespace kc::grading
