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
  const std::vector<int> blocks = declared_blocks(t.blocks, "the seed's is 256");
  return json::object{{"family", "atax"}, {"abi", t.abi}, {"blocks", as_json(blocks)}};
}

const family_registration registered("atax", atax_traits);

}  // namespace
}  // namespace kc::probe
