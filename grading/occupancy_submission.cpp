#include "grading/occupancy_submission.hpp"

#include "grading/submission_library.hpp"

#include <vector>

namespace kc::grading {
namespace {

using vector_add_entry = const char* (*)(const float*, const float*, float*, size_t, int, int, cudaStream_t);
using kernel_entry = const void* (*)();
using answer_entry = const char* (*)(int, int*, int*);

launch_status launch_vector_add(const float* a, const float* b, float* c, std::size_t n,
                                const access::access_config& config, cudaStream_t stream) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<vector_add_entry>("kc_vector_add", &missing);
  if (entry == nullptr) return missing;
  return status_after_entry(entry(a, b, c, n, config.block, config.repeats, stream), "kc_vector_add");
}

std::vector<access::variant> build_row() {
  if (!submission_traits()) return {};
  access::variant v{};
  v.name = "Submission";
  v.catalog_id = "OC";
  v.seed = "student";
  v.technique = "the submission's kc_vector_add: DV1's body with the S1 / S2 launch scenarios";
  v.computes = access::body::branch_by_warp;
  v.scenario_blocks = true;
  v.launch = launch_vector_add;
  return {v};
}

}  // namespace

std::span<const access::variant> vector_add_submission() {
  static const std::vector<access::variant> row = build_row();
  return row;
}

const void* submission_vector_add_kernel(std::string* problem) {
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<kernel_entry>("kc_vector_add_kernel", &missing);
  if (entry == nullptr) {
    *problem = missing.message();
    return nullptr;
  }
  const void* kernel = entry();
  if (kernel == nullptr) *problem = "kc_vector_add_kernel() returned NULL: return the __global__ function kc_vector_add launches";
  return kernel;
}

occupancy_answer submission_occupancy_answer(int block) {
  occupancy_answer out;
  launch_status missing = launch_status::ok();
  const auto entry = find_entry<answer_entry>("kc_occupancy_answer", &missing);
  if (entry == nullptr) {
    out.problem = missing.message();
    return out;
  }
  const launch_status said = status_after_entry(entry(block, &out.active_blocks_per_sm, &out.active_warps_per_sm),
                                                "kc_occupancy_answer");
  if (said.what() == launch_status::kind::refused) {
    out.problem = said.message();
    return out;
  }
  // A runtime call the answer made may have failed without a refusal (cudaGetLastError, which
  // status_after_entry read, is then cleared): the answer is still judged on its numbers.
  out.answered = true;
  return out;
}

}  // namespace kc::grading
