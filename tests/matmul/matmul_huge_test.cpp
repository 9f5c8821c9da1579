// C with more than 2^31 elements: the outer product 46341 x 46341 (k = 1), 8.6 GB of floats, so
// every row·n + col past 2^31 overflows a 32-bit index. Run by every many-block variant (the
// single-block ones have no configuration that covers it, and skip saying so) through
// the same check as the conformance suite (Freivalds plus exact spot checks: the product is far past
// the full reference's limit). One CTest test runs this program alone on the GPU (RUN_SERIAL).
#include "fixtures/cublas_handle.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "fixtures/replay.hpp"
#include "tests/matmul/matmul_checks.hpp"

#include <algorithm>

namespace kc::matmul::testing {
namespace {

constexpr shape huge_shape{46341, 46341, 1};  // m·n = 2,147,488,281 > 2^31

class AcrossIndex2To31 : public ::testing::TestWithParam<const variant*> {};

TEST_P(AcrossIndex2To31, MatchesReference) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  static_assert(static_cast<double>(huge_shape.m) * huge_shape.n > 0x1p31);
  const std::vector<matmul_config> configs = swept_configs(v, huge_shape);
  // Single-block variants have no configuration that covers C (one block of at most 32 x 32
  // threads, TILE_WIDTH <= 64): the registry says so, and this shape is not theirs. A variant that
  // has configurations must run one: a refusal here is a failure of the index path under test.
  if (configs.empty()) GTEST_SKIP() << v.name << ": no configuration covers " << huge_shape.describe() << " (single block)";
  case_tally tally;
  KC_SKIP_IF_TOO_LARGE({
    const auto input = prepare(huge_shape, input_kind::integer, case_seed(base_seed(), "MatmulHuge"));
    // The most parallel configuration only: the sweep covers the rest at smaller shapes.
    const matmul_config config = *std::max_element(configs.begin(), configs.end(), [](const matmul_config& x, const matmul_config& y) {
      return threads_launched(*GetParam(), huge_shape, x) < threads_launched(*GetParam(), huge_shape, y);
    });
    tally.record(check_matmul(v, config, *input, {nullptr, process_cublas_handle()}));
  });
  if (IsSkipped() || HasFatalFailure()) return;
  tally.expect_some_ran(std::string(v.name) + " at " + huge_shape.describe());
}

INSTANTIATE_TEST_SUITE_P(MatmulHuge, AcrossIndex2To31, ::testing::ValuesIn(pointers_to(correct_variants())),
                         row_name<variant>);

}  // namespace
}  // namespace kc::matmul::testing
