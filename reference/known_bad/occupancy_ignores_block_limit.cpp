#include "reference/known_bad/occupancy_ignores_block_limit.hpp"

namespace kc::occupancy::known_bad {

// The real calculator with the block limit lifted: every other rule is the correct one, so the
// only thing a test can catch is the missing limit.
outcome calculate_ignoring_blocks_per_sm(const sm_limits& sm, const kernel_resources& kernel) {
  sm_limits no_block_limit = sm;
  no_block_limit.max_blocks_per_sm = occupancy::unlimited;
  return calculate(no_block_limit, kernel);
}

}  // namespace kc::occupancy::known_bad
