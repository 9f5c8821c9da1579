// KNOWN-BAD. A seed-000 multi-pass driver that runs every pass correctly but then reads the final
// value from the wrong one of its two ping-pong buffers — the bookkeeping the report warns about
// ("we must be able to tell which array holds the final output"). It reuses the real driver and
// flips only that last decision, so the only bug is the one under test.
#include "kernels/reduction/pass_kernels.hpp"

namespace kc::reduction::detail {

reduce_outcome run_multipass_wrong_final_buffer(const variant& v, float* a, std::size_t n, float* scratch,
                                                std::size_t scratch_elements, const reduce_config& config,
                                                cudaStream_t stream, const pass_observer* observer) {
  reduce_outcome outcome = run_multipass(v, a, n, scratch, scratch_elements, config, stream, observer);
  if (outcome.status) outcome.result = outcome.plan.result_in_scratch ? a : scratch;
  return outcome;
}

}  // namespace kc::reduction::detail
