// Occupancy (KERNELS.md §4 and §6, seed 003's occupancy scenarios): the submission's traits, checked
// and printed for the grading program (probe.hpp). The blocks come from the scenarios S1 and S2, so
// the traits carry only the contract's version; every entry point must be there.
#include "grading/contract/kconform_occupancy_submission.h"
#include "grading/probe/probe.hpp"

namespace kc::probe {
namespace {

json::value occupancy_traits(void* library) {
  const char* contract = "kconform_occupancy_submission.h";
  const auto traits_fn =
      reinterpret_cast<kc_occupancy_traits (*)()>(entry(library, "kc_occupancy_submission_traits", contract));
  entry(library, "kc_vector_add", contract);
  entry(library, "kc_vector_add_kernel", contract);
  entry(library, "kc_occupancy_answer", contract);
  const kc_occupancy_traits t = traits_fn();
  check_abi(t.abi);
  return json::object{{"family", "occupancy"}, {"abi", t.abi}};
}

const family_registration registered("occupancy", occupancy_traits);

}  // namespace
}  // namespace kc::probe
