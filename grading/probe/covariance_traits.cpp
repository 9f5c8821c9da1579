// Covariance (KERNELS.md §5–§6): the submission's traits, checked and printed for the grading program (probe.hpp).
#include "grading/contract/kconform_covariance_submission.h"
#include "grading/probe/probe.hpp"

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
  const std::vector<int> blocks = declared_blocks(t.blocks, "the seed's BLOCK_SIZE is 16");
  return json::object{{"family", "covariance"}, {"abi", t.abi}, {"blocks", as_json(blocks)}};
}

const family_registration registered("covariance", covariance_traits);

}  // namespace
}  // namespace kc::probe
