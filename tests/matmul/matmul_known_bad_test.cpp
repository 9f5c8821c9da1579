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
#include "fixtures/case_progress.hpp"
#include "fixtures/registry_rows.hpp"
#include "tests/matmul/matmul_checks.hpp"


#include <algorithm>
#include <vector>

namespace kc::matmul::testing {
namespace {

class KnownBadMatmul : public ::testing::TestWithParam<const variant*> {};

TEST_P(KnownBadMatmul, IsRejectedByTheSuite) {
  KC_REQUIRE_GPU();
  const variant& v = *GetParam();
  const launch_context context{nullptr, process_cublas_handle()};
  known_bad_tally tally;
  KC_SKIP_IF_TOO_LARGE({
    // Smallest shapes first (stable: each shape's inputs stay together, so inputs are reused). The
    // sweep stops at the first catch, and a bug that shows only off the square (WrongLeadingDimension)
    // was met after every square up to 4096 in swept_shapes()'s order: 87 cases, 8 s on the H100.
    std::vector<matmul_case> cases = every_case_of(v);
    std::stable_sort(cases.begin(), cases.end(),
                     [](const matmul_case& x, const matmul_case& y) { return multiply_adds(x.s) < multiply_adds(y.s); });
    for (const matmul_case& c : cases) {
      if (context_lost() || !tally.wants_more()) break;
      if (const launch_status status = v.validate(c.s, c.config, device_limits::of_current_device()); !status) {
        tally.record(c.name(), check_result::refuse(status.message()));  // refused cases need no data
        continue;
      }
      tally.record(c.name(), check_matmul(v, c.config, *input_for(c.s, c.input), context));
    }
  });
  tally.expect_caught(std::string(v.name), std::string(v.known_bug), context_lost());
  if (context_lost()) progress::end_process_after_this_case();  // the next row needs a live context
}

INSTANTIATE_TEST_SUITE_P(Matmul, KnownBadMatmul, ::testing::ValuesIn(rows_caught_by(known_bad_variants(), caught_by::value_checks)),
                         row_name<variant>);

}  // namespace
}  // namespace kc::matmul::testing
