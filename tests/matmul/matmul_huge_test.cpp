// C with more than 2^31 elements: the outer product 46341 x 46341 (k = 1), 8.6 GB of floats, so
// every row·n + col past 2^31 overflows a 32-bit index. Run by every many-block variant (the
// single-block ones have no configuration that covers it, and skip saying so) through
// the same check as the conformance suite (Freivalds plus exact spot checks: the product is far past
// the full reference's limit), once per kernel the variant can launch: each kernel's index
// arithmetic is its own (MM4's narrow and wide patches, one shared_tiled per TILE_WIDTH), and the
// first version ran only the most parallel configuration, so MM4's wide-patch kernel never saw
// 2^31. Its units share the GPU (10 slots; ~26 GB of the device for both huge units).
#include "fixtures/cublas_handle.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "fixtures/replay.hpp"
#include "tests/matmul/matmul_checks.hpp"

#include <map>

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
    // Per kernel (kernel_handle_of's function; one for cuBLAS, which has none), its most parallel
    // configuration: the sweep covers the rest at smaller shapes.
    std::map<const void*, matmul_config> per_kernel;
    for (const matmul_config& config : configs) {
      const void* kernel = kernel_handle_of(v, config).function;
      // Only a library call has no kernel of ours; a hand-written variant missing from
      // kernels/matmul/kernel_handles.cpp would silently run one configuration for all its kernels.
      if (kernel == nullptr && config.block != 0)
        FAIL() << v.name << " " << config.describe() << ": no kernel registered in kernels/matmul/kernel_handles.cpp";
      const auto [at, inserted] = per_kernel.emplace(kernel, config);
      if (!inserted && threads_launched(v, huge_shape, config) > threads_launched(v, huge_shape, at->second)) at->second = config;
    }
    for (const auto& [kernel, config] : per_kernel)
      tally.record(check_matmul(v, config, *input, {nullptr, process_cublas_handle()}));
  });
  if (IsSkipped() || HasFatalFailure()) return;
  tally.expect_some_ran(std::string(v.name) + " at " + huge_shape.describe());
}

INSTANTIATE_TEST_SUITE_P(MatmulHuge, AcrossIndex2To31, ::testing::ValuesIn(pointers_to(correct_variants())),
                         row_name<variant>);

}  // namespace
}  // namespace kc::matmul::testing
