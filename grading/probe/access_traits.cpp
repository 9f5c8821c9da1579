// Access (KERNELS.md §4, seed 003): the submission's traits, checked and printed for the grading program (probe.hpp).
#include "grading/contract/kconform_access_submission.h"
#include "grading/probe/probe.hpp"

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
  const std::vector<int> blocks = declared_blocks(t.blocks, "the seed's is 1024");
  if (blocks.front() % 32 != 0)
    signature_problem("traits.blocks[0] is " + std::to_string(blocks.front()) +
                      ": the first block is every pattern's default, and the grouped pattern needs whole warps, so it "
                      "must be a multiple of 32 (the seed's is 1024)");
  return json::object{{"family", "access"}, {"abi", t.abi}, {"blocks", as_json(blocks)}};
}

const family_registration registered("access", access_traits);

}  // namespace
}  // namespace kc::probe
