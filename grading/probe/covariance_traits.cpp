// Covariance (KERNELS.md §5–§6): the submission's traits, checked and printed for the grading program (probe.hpp).
#include "grading/contract/kconform_covariance_submission.h"
#include "grading/probe/probe.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace kc::probe {
namespace {

json::value covariance_traits(void* library) {
  const char* contract = "kconform_covariance_submission.h";
  const auto traits_fn =
      reinterpret_cast<kc_covariance_traits (*)()>(entry(library, "kc_covariance_submission_traits", contract));
  entry(library, "kc_covariance", contract);
  const kc_covariance_traits t = traits_fn();
  check_abi(t.abi);
  std::vector<int> seen;
  json::array blocks;
  for (const int block : t.blocks) {
    if (block == 0) continue;
    if (block < 1 || block > 1024)
      signature_problem("traits declare block " + std::to_string(block) + ": a BLOCK_SIZE must be 1 to 1024");
    if (std::find(seen.begin(), seen.end(), block) != seen.end())
      signature_problem("traits declare block " + std::to_string(block) + " twice: list each BLOCK_SIZE once");
    seen.push_back(block);
    blocks.push_back(block);
  }
  if (blocks.empty()) signature_problem("traits declare no block: fill traits.blocks (the seed's BLOCK_SIZE is 16)");
  return json::object{{"family", "covariance"}, {"abi", t.abi}, {"blocks", std::move(blocks)}};
}

const family_registration registered("covariance", covariance_traits);

}  // namespace
}  // namespace kc::probe
