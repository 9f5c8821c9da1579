// The abstract reduction conformance suite (GoogleTest's "abstract tests"): the TEST_P bodies are
// written once in reduction_conformance_test.cpp against these fixtures; instantiate_sweep.cpp
// instantiates them over the registry. The instantiation is sharded over several executables so
// that each test process registers a few hundred cases, not thousands: CTest runs one process per
// case, and GoogleTest's start-up grows with the cases registered.
#pragma once

#include "tests/reduction/reduction_cases.hpp"

#include <gtest/gtest.h>

namespace kc::reduction::testing {

class OnePass : public ::testing::TestWithParam<reduction_case> {};
class FullReduction : public ::testing::TestWithParam<reduction_case> {};

inline std::string case_name(const ::testing::TestParamInfo<reduction_case>& info) { return info.param.name(); }

// Keeps the cases whose index is `shard` modulo `shards` (shard < 0: all of them).
std::vector<reduction_case> shard_of(std::vector<reduction_case> cases, int shard, int shards);

}  // namespace kc::reduction::testing
