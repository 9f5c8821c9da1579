// Instantiates the abstract reduction suite over every correct variant of the registry.
// Compiled once per shard with KCONFORM_SHARD=k (of KCONFORM_SHARDS), and once with
// KCONFORM_SHARD=-1 for the executable that holds every case (used by the sanitizer runs).
#include "tests/reduction/reduction_conformance.hpp"

#ifndef KCONFORM_SHARD
#error "compile with -DKCONFORM_SHARD=<k> -DKCONFORM_SHARDS=<n> (see tests/CMakeLists.txt)"
#endif

namespace kc::reduction::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Reduction, OnePass,
                         ::testing::ValuesIn(shard_of(sweep_pass_variants(correct_variants()), KCONFORM_SHARD, KCONFORM_SHARDS)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Reduction, FullReduction,
                         ::testing::ValuesIn(shard_of(sweep(correct_variants()), KCONFORM_SHARD, KCONFORM_SHARDS)), case_name);
INSTANTIATE_TEST_SUITE_P(ReductionEdgeInputs, FullReduction,
                         ::testing::ValuesIn(shard_of(edge_input_cases(correct_variants()), KCONFORM_SHARD, KCONFORM_SHARDS)),
                         case_name);

}  // namespace
}  // namespace kc::reduction::testing
