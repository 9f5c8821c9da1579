// PolyBench ATAX (KERNELS.md §5, seed 004): the submission's traits, checked and printed for the
// grading program (probe.hpp).
#include "grading/contract/kconform_atax_submission.h"
#include "grading/probe/probe.hpp"

#include <string>

namespace kc::probe {
namespace {

json::value atax_traits(void* library) {
  const char* contract = "kconform_atax_submission.h";
  const auto traits_fn = reinterpret_cast<kc_atax_traits (*)()>(entry(library, "kc_atax_submission_traits", contract));
  entry(library, "kc_atax", contract);
  const kc_atax_traits t = traits_fn();
  check_abi(t.abi);
  json::array blocks;
  for (const int block : t.blocks) {
    if (block == 0) continue;
    if (block < 1 || block > 1024)
      signature_problem("traits declare block " + std::to_string(block) + ": a 1-D block has 1 to 1024 threads");
    for (const json::value& seen : blocks)
      if (seen.as_number() && static_cast<int>(*seen.as_number()) == block)
        signature_problem("traits declare block " + std::to_string(block) + " twice: list each block once");
    blocks.push_back(block);
  }
  if (blocks.empty()) signature_problem("traits declare no block: fill traits.blocks (the seed's is 256)");
  return json::object{{"family", "atax"}, {"abi", t.abi}, {"blocks", std::move(blocks)}};
}

const family_registration registered("atax", atax_traits);

}  // namespace
}  // namespace kc::probe
