// The suite must reject the known-bad matmul kernels (kernels/matmul/known_bad/). Each value-detected
// row faces the *same* sweep a correct variant faces: every shape of swept_shapes() (rectangular
// ones included: a wrong leading dimension shows only when m, n, k differ), every input of
// inputs_for(shape), and its own configurations (the report's launch, or a TILE_WIDTH that does
// not fit n), through the same check. A row is caught only by a failed check; refusals (the
// seed's as-written kernels take square shapes only) are counted apart and prove nothing. The
// sweep stops at the first catch unless KCONFORM_KNOWN_BAD_FULL=1; a kernel that kills the CUDA
// context is caught too. Rows only a sanitizer sees are in matmul_sanitizer_targets.cpp.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/matmul/matmul_checks.hpp"


namespace kc::matmul::testing {
namespace {

class KnownBadMatmul : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadMatmul, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  const cublas_handle handle;
  const launch_context context{nullptr, handle.get()};
  known_bad_tally tally;
  KC_SKIP_IF_TOO_LARGE({
    for (const shape& s : swept_shapes()) {
      if (context_lost() || !tally.wants_more()) break;
      const std::vector<matmul_config> configs = swept_configs(v, s);
      for (const input_kind kind : inputs_for(s)) {
        if (context_lost() || !tally.wants_more()) break;
        std::shared_ptr<const prepared_input> input;  // drawn for the first accepted config only
        for (const matmul_config& config : configs) {
          if (!runs_input(v, s, config, kind)) continue;
          const std::string name = inner_case_name(v, s, config, kind);
          if (const launch_status status = v.validate(s, config, device_limits::of_current_device()); !status) {
            tally.record(name, check_result::refuse(status.message()));  // refused cases need no data
            continue;
          }
          if (!input) input = prepare(s, kind, case_seed(base_seed(), std::string(v.name) + s.describe() + name_of(kind)));
          tally.record(name, check_matmul(v, config, *input, context));
          if (context_lost() || !tally.wants_more()) break;
        }
      }
    }
  });
  tally.expect_caught(std::string(v.name), std::string(v.known_bug), context_lost());
}

INSTANTIATE_TEST_SUITE_P(Matmul, KnownBadMatmul, ::testing::ValuesIn(rows_caught_by(known_bad_variants(), caught_by::value_checks)),
                         row_name<variant>);

}  // namespace
}  // namespace kc::matmul::testing
