// The covariance conformance suite (seed 004), written once against the registry: one GoogleTest
// case per correct variant × size × FLOAT_N setting × input × launch configuration, named like
// PolybenchCovariance/Conformance.MatchesReference/CovarianceMultiKernelN33M65T16B256C32x8FloatNSeedUniform.
// mean and every element of symmat are compared with the long double reference within the error
// bound derived in covariance_checks.cpp; PolyBench's own percent-difference figure is recorded on
// every case ("polybench_check") and printed in every failure, beside the verdict. tools/runner runs
// a variant's cases in one process (its unit), and the seed's 1024² and 2048² of every variant in
// one more (Large), which computes each of those references once for all variants.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"
#include "tests/polybench/covariance_checks.hpp"

namespace kc::polybench::covariance::testing {
namespace {

class Conformance : public ::testing::TestWithParam<covariance_case> {};

TEST_P(Conformance, MatchesReference) {
  KC_REQUIRE_GPU();
  const covariance_case& c = GetParam();
  KC_SKIP_IF_TOO_LARGE({
    const check_outcome outcome = check_covariance(c, *input_for(c), process_cublas_handle());
    if (outcome.polybench) ::testing::Test::RecordProperty("polybench_check", outcome.polybench->describe());
    expect_case_passed(outcome.result);
  });
}

INSTANTIATE_TEST_SUITE_P(PolybenchCovariance, Conformance, ::testing::ValuesIn(sweep(correct_variants())),
                         case_param_name<covariance_case>);

}  // namespace
}  // namespace kc::polybench::covariance::testing
