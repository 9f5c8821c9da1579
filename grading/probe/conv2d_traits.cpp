// Conv2D 3×3 (KERNELS.md §5, seed 004): the submission's traits, checked and printed for the grading
// program (probe.hpp).
#include "grading/contract/kconform_conv2d_submission.h"
#include "grading/probe/probe.hpp"

#include <string>

namespace kc::probe {
namespace {

json::value conv2d_traits(void* library) {
  const char* contract = "kconform_conv2d_submission.h";
  const auto traits_fn = reinterpret_cast<kc_conv2d_traits (*)()>(entry(library, "kc_conv2d_submission_traits", contract));
  entry(library, "kc_conv2d", contract);
  const kc_conv2d_traits t = traits_fn();
  check_abi(t.abi);
  json::array configs;
  for (const kc_conv2d_config& c : t.configs) {
    if (c.block_x == 0 && c.block_y == 0) continue;
    const std::string block = "{" + std::to_string(c.block_x) + ", " + std::to_string(c.block_y) + "}";
    // 1024: every GPU this grader runs on (the launch path checks the device's own limits again).
    if (c.block_x < 1 || c.block_y < 1 || static_cast<long long>(c.block_x) * c.block_y > 1024)
      signature_problem("traits declare block " + block +
                        ": need block_x >= 1, block_y >= 1 and at most 1024 threads (e.g. {16, 16})");
    for (const json::value& seen : configs)
      if (seen == json::value(json::array{c.block_x, c.block_y}))
        signature_problem("traits declare block " + block + " twice: list each block once");
    configs.push_back(json::array{c.block_x, c.block_y});
  }
  if (configs.empty()) signature_problem("traits declare no block: fill traits.configs (e.g. {16, 16})");
  return json::object{{"family", "conv2d"}, {"abi", t.abi}, {"configs", std::move(configs)}};
}

const family_registration registered("conv2d", conv2d_traits);

}  // namespace
}  // namespace kc::probe
