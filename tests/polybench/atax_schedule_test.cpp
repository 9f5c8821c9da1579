// The seed's cross-block race on tmp, on its own (issue 10 §4: "if a race is latent on the GPU at
// hand, catch it"). The fused kernel's second loop reads every chunk of tmp, each written by another
// block, with no grid-wide barrier. When every block of the grid is resident at once the writers
// usually finish first and the race is latent; no compute-sanitizer tool reports it (racecheck
// covers shared memory only). KCONFORM_FREE_SMS=1 (fixtures/device_ops.hpp) occupies every SM but
// one during the launch, so the grid runs in waves: at 2048 x 2048 with block 32 one SM holds at most
// 32 of the 64 blocks, and none of those 32 can retire before it has read chunk 32 — which block 32,
// not yet started, has not written. tmp is poisoned, so y gets NaN: deterministic, not probabilistic.
// PolyBench's init at a square multiple of the block leaves the race the only bug that can show (A
// symmetric: the transposed indexing is harmless; 32 divides 2048: no read past A or tmp).
// Alone on the GPU (EXCLUSIVE, RUN_SERIAL): other processes' kernels would change the schedule.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/device_ops.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "tests/polybench/atax_checks.hpp"

#include <iostream>
#include <string>

namespace kc::polybench::atax::testing {
namespace {

constexpr atax_shape race_shape{2048, 2048};
constexpr int race_block = 32;

TEST(FusedAsWrittenRace, SeenWhenBlocksRunInWaves) {
  KC_REQUIRE_GPU();
  const atax_case c{find_variant("AtaxFusedAsWritten"), race_shape, {race_block}, input_kind::polybench};
  const auto input = input_for(c.s, c.input);
  // The usual schedule, for the record: the race may or may not show there.
  const check_result plain = check_atax(c, *input, process_cublas_handle());
  ::testing::Test::RecordProperty("plain_schedule", plain.passed() ? "passed (race latent)" : "failed");
  std::cout << "[ schedule ] " << c.name() << " on the usual schedule: "
            << (plain.passed() ? "passed (the race is latent)" : "failed: " + plain.message.substr(0, plain.message.find('\n')))
            << '\n';
  const free_sms_scope scope(1);
  const check_result waves = check_atax(c, *input, process_cublas_handle());
  EXPECT_EQ(waves.outcome, verdict::failed) << "the fused kernel read no unwritten tmp while its blocks ran in waves: "
                                            << waves.message;
  EXPECT_NE(waves.message.find("NaN"), std::string::npos) << waves.message;
}

// The correct variants' two launches are ordered by their stream, whatever the schedule.
TEST(FusedAsWrittenRace, CorrectVariantsStayRightInWaves) {
  KC_REQUIRE_GPU();
  const free_sms_scope scope(1);
  for (const variant& v : correct_variants())
    for (const atax_config& config : swept_configs(v)) {
      if (config.block != 0 && config.block != race_block) continue;
      const atax_case c{&v, race_shape, config, input_kind::random};
      EXPECT_TRUE(expect_passed(check_atax(c, *input_for(c.s, c.input), process_cublas_handle()))) << c.name();
    }
}

}  // namespace
}  // namespace kc::polybench::atax::testing
