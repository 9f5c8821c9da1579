// One graded value case of the families whose submission is a row of the access registry (access's
// AC1–AC3, divergence's DV1/DV2, occupancy's vector add): the conformance check's own sizes, inputs
// and comparison (tests/access/access_checks.hpp: inputs kept pristine, guard zones, C poisoned, the
// exact host reference bit for bit), then what every graded case checks after (the memory guard's
// refusals, the seed).
#pragma once

#include "fixtures/suite_case.hpp"
#include "grading/graded_case.hpp"
#include "grading/submission_library.hpp"
#include "tests/access/access_checks.hpp"

namespace kc::grading {

using graded_access_case = graded_case<access::testing::access_case>;

inline void run_graded_access_case(const graded_access_case& g) {
  record_grading_properties(g);
  const access::testing::access_case& c = g.inner;
  expect_case_passed(access::testing::check_access(c, *access::testing::input_for(c)));
  expect_within_memory_limit();
  expect_seed_unchanged();
}

}  // namespace kc::grading
