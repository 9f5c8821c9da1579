// Access (KERNELS.md §4, seed 003): the submission's traits, checked and printed for the grading program (probe.hpp).
#include "grading/contract/kconform_access_submission.h"
#include "grading/probe/probe.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace kc::probe {
namespace {

json::value access_traits(void* library) {
  const char* contract = "kconform_access_submission.h";
  const auto traits_fn = reinterpret_cast<kc_access_traits (*)()>(entry(library, "kc_access_submission_traits", contract));
  for (const char* name : {"kc_access_coalesced", "kc_access_random", "kc_access_grouped"}) entry(library, name, contract);
  const kc_access_traits t = traits_fn();
  check_abi(t.abi);
  std::vector<int> seen;
  json::array blocks;
  for (const int block : t.blocks) {
    if (block == 0) continue;
    if (block < 1 || block > 1024)
      signature_problem("traits declare block " + std::to_string(block) + ": blocks must be 1 to 1024 threads");
    if (std::find(seen.begin(), seen.end(), block) != seen.end())
      signature_problem("traits declare block " + std::to_string(block) + " twice");
    seen.push_back(block);
    blocks.push_back(block);
  }
  if (seen.empty()) signature_problem("traits declare no block: fill traits.blocks (the seed's is 1024)");
  if (seen.front() % 32 != 0)
    signature_problem("traits.blocks[0] is " + std::to_string(seen.front()) +
                      ": the first block is every pattern's default, and the grouped pattern needs whole warps, so it "
                      "must be a multiple of 32 (the seed's is 1024)");
  return json::object{{"family", "access"}, {"abi", t.abi}, {"blocks", std::move(blocks)}};
}

const family_registration registered("access", access_traits);

}  // namespace
}  // namespace kc::probe
