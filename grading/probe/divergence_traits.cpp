// Divergence (KERNELS.md §4, seed 003's DV1/DV2): the submission's traits, checked and printed for the
// grading program (probe.hpp).
#include "grading/contract/kconform_divergence_submission.h"
#include "grading/probe/probe.hpp"

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
  const std::vector<int> blocks = declared_blocks(t.blocks, "the first is your default");
  return json::object{{"family", "divergence"}, {"abi", t.abi}, {"blocks", as_json(blocks)}};
}

const family_registration registered("divergence", divergence_traits);

}  // namespace
}  // namespace kc::probe
