// Divergence (KERNELS.md §4, seed 003's DV1/DV2): the submission's traits, checked and printed for the
// grading program (probe.hpp).
#include "grading/contract/kconform_divergence_submission.h"
#include "grading/probe/probe.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace kc::probe {
namespace {

json::value divergence_traits(void* library) {
  const char* contract = "kconform_divergence_submission.h";
  const auto traits_fn =
      reinterpret_cast<kc_divergence_traits (*)()>(entry(library, "kc_divergence_submission_traits", contract));
  entry(library, "kc_warp_no_divergence", contract);
  entry(library, "kc_warp_divergence", contract);
  const kc_divergence_traits t = traits_fn();
  check_abi(t.abi);
  std::vector<int> seen;
  json::array blocks;
  for (const int block : t.blocks) {
    if (block == 0) continue;
    if (block < 1 || block > 1024)
      signature_problem("traits declare block " + std::to_string(block) + ": a block has 1 to 1024 threads");
    if (std::find(seen.begin(), seen.end(), block) != seen.end())  // as every family: one listing per block
      signature_problem("traits declare block " + std::to_string(block) + " twice: list each block once");
    seen.push_back(block);
    blocks.push_back(block);
  }
  if (blocks.empty()) signature_problem("traits declare no block: fill traits.blocks (the first is your default)");
  return json::object{{"family", "divergence"}, {"abi", t.abi}, {"blocks", std::move(blocks)}};
}

const family_registration registered("divergence", divergence_traits);

}  // namespace
}  // namespace kc::probe
