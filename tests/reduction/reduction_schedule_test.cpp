// Schedule perturbation (issue 6, stretch): a race between blocks through global memory is right on
// the usual schedule, where every block of a small grid is resident at once, and no
// compute-sanitizer tool reports it (racecheck covers shared memory only). Occupying all SMs but a
// few (KCONFORM_FREE_SMS, fixtures/device_ops.hpp) makes the same launch run its blocks in waves.
//
//   PerturbationCausesNoFalseAlarm   every correct pass variant stays right under it
//   CrossBlockRaceShowsOnlyInWaves   CarryIntoNextChunk at n = 4097 (17 blocks of 256): counts
//                                    how often the plain schedule and the perturbed one catch it;
//                                    the perturbed one must.
#include "fixtures/device_ops.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "tests/reduction/reduction_checks.hpp"

#include <cstdlib>
#include <iostream>

namespace kc::reduction::testing {
namespace {

constexpr int runs = 20;

// Runs the one-pass check `runs` times with KCONFORM_FREE_SMS = `free_sms` (-1: unset, the plain
// schedule): the check occupies all SMs but that many right before its launch. `log` sees each
// failure.
template <class Log>
std::size_t failures_over_runs(const variant& v, std::size_t n, int block, int free_sms, Log&& log) {
  std::size_t failed = 0;
  const auto input = prepare_input(input_kind::integer, n, case_seed(base_seed(), std::string(v.name) + "Schedule"));
  if (free_sms >= 0) ::setenv("KCONFORM_FREE_SMS", std::to_string(free_sms).c_str(), 1);
  else ::unsetenv("KCONFORM_FREE_SMS");
  for (int r = 0; r < runs; ++r) {
    const check_result result = check_one_pass({&v, n, {block, 0}, input_kind::integer}, *input);
    if (!result.passed()) {
      ++failed;
      log(result);
    }
    KC_CUDA_TRY(cudaDeviceSynchronize());
  }
  ::unsetenv("KCONFORM_FREE_SMS");
  return failed;
}

TEST(ScheduleStress, PerturbationCausesNoFalseAlarm) {
  KC_REQUIRE_GPU();
  for (const variant& v : correct_variants()) {
    if (!v.has_pass()) continue;
    const std::size_t failed = failures_over_runs(v, 4097, 256, 1, [&](const check_result& r) { ADD_FAILURE() << r.message; });
    EXPECT_EQ(failed, 0u) << v.name << " failed under the schedule perturbation";
  }
}

TEST(ScheduleStress, CrossBlockRaceShowsOnlyInWaves) {
  KC_REQUIRE_GPU();
  const variant& v = *find_variant("CarryIntoNextChunk");
  std::string first;
  const auto keep_first = [&](const check_result& r) {
    if (first.empty()) first = r.message.substr(0, r.message.find('\n'));
  };
  const std::size_t plain = failures_over_runs(v, 4097, 256, -1, keep_first);
  const std::size_t perturbed = failures_over_runs(v, 4097, 256, 1, keep_first);
  RecordProperty("plain_schedule_caught", std::to_string(plain) + " of " + std::to_string(runs));
  RecordProperty("perturbed_schedule_caught", std::to_string(perturbed) + " of " + std::to_string(runs));
  std::cout << "[ schedule ] CarryIntoNextChunk n = 4097, block 256: caught in " << plain << " of " << runs
            << " runs on the plain schedule, " << perturbed << " of " << runs << " with all SMs but one occupied\n"
            << "  first failure: " << first << '\n';
  EXPECT_GT(perturbed, 0u) << "the perturbed schedule did not expose the cross-block race";
}

}  // namespace
}  // namespace kc::reduction::testing
