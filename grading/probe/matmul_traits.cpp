// Matmul (KERNELS.md §3): the submission's traits, checked and printed for the grading program (probe.hpp).
#include "grading/contract/kconform_matmul_submission.h"
#include "grading/probe/probe.hpp"

#include <string>

namespace kc::probe {
namespace {

json::value matmul_traits(void* library) {
  const char* contract = "kconform_matmul_submission.h";
  const auto traits_fn = reinterpret_cast<kc_matmul_traits (*)()>(entry(library, "kc_matmul_submission_traits", contract));
  entry(library, "kc_matmul", contract);
  const kc_matmul_traits t = traits_fn();
  check_abi(t.abi);
  if (t.block_dims != 1 && t.block_dims != 2) signature_problem("traits.block_dims must be 1 or 2");
  json::array configs;
  for (const kc_matmul_config& c : t.configs) {
    if (c.block == 0 && c.tile_width == 0) continue;
    const int threads = t.block_dims == 2 ? c.block * c.block : c.block;
    if (c.block < 1 || c.tile_width < 1 || threads > 1024)
      signature_problem("traits declare configuration {block " + std::to_string(c.block) + ", tile_width " +
                        std::to_string(c.tile_width) + "}: need block >= 1, tile_width >= 1 and at most 1024 threads");
    const json::value pair = json::array{c.block, c.tile_width};
    // The same configuration twice would name two cases alike, and GoogleTest refuses the program.
    for (const json::value& earlier : configs)
      if (json::dump(earlier) == json::dump(pair))
        signature_problem("traits declare configuration {block " + std::to_string(c.block) + ", tile_width " +
                          std::to_string(c.tile_width) + "} twice: list each configuration once");
    configs.push_back(pair);
  }
  if (configs.empty()) signature_problem("traits declare no configuration: fill traits.configs");
  return json::object{{"family", "matmul"},
                          {"abi", t.abi},
                          {"block_dims", t.block_dims},
                          {"reads_c", t.reads_c != 0},
                          {"configs", std::move(configs)}};
}

const family_registration registered("matmul", matmul_traits);

}  // namespace
}  // namespace kc::probe
