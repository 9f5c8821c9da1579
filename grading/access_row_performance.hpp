// The performance case of the families whose submission is a row of the access registry (access's
// AC1, divergence's DV1, occupancy's vector add): the submission's row against the suite's reference
// row, both on the seed's data at n elements, after the submission is shown right at that size and at
// both repeat counts timed; a launch refused while timed fails the case; then the fresh-contents check
// (graded_performance.hpp) at both repeat counts: the integer input of another seed at the same
// addresses, C poisoned, one more call made as the timing makes it (run_as_timed), judged by the
// conformance check's own comparison (access::testing::judge_output: every element one IEEE
// operation on its inputs, so bit for bit).
// The caller records the case first (record_performance_case).
//
// `repeats` (issue 20): every repeat writes the same value, so no output shows a launcher that ignores
// it; at the lab's 100 (10,000 for the occupancy vector add) such a launcher ran up to that many times
// faster than the reference and took full points. Both rows are therefore timed at the caller's
// repeats and at one repeat (same n, same blocks), each pair by judge_timing, and the worse ratio is
// scored (grading/timed_ratio.hpp: repeats_timing, with the "repeats appears ignored" note). Both
// ratios are recorded (ratio_at_repeats, ratio_at_one_repeat; scored_at says which one counted).
#pragma once

#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/measurement.hpp"
#include "grading/graded_performance.hpp"
#include "grading/submission_library.hpp"
#include "kernels/access/access.hpp"
#include "tests/access/access_checks.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

namespace kc::grading {

inline access::access_config one_repeat(access::access_config config) {
  config.repeats = 1;
  return config;
}

// Times the submission and the reference at the lab's repeats and at one repeat (judge_timing for
// each pair) and records the worse ratio as the scored one, with both ratios, their medians and the
// repeats note. A timed call whose output was not complete when it returned fails the case.
inline void time_rows_at_repeats_and_one(const graded_work& submission, const graded_work& reference,
                                         const graded_work& submission_one, const graded_work& reference_one,
                                         int repeats, cudaStream_t stream, const std::string& what) {
  if (repeats <= 1) {
    time_against_reference(submission, reference, stream, what);
    return;
  }
  const judged_timing at_repeats = judge_timing(submission, reference, stream);
  const judged_timing at_one = judge_timing(submission_one, reference_one, stream);
  record_timing_method(at_repeats, "_at_repeats");
  record_timing_method(at_one, "_one_repeat");
  for (const judged_timing* t : {&at_repeats, &at_one})
    if (!timing_succeeded(*t)) return;
  const repeats_timing timed{at_repeats.ratio, at_one.ratio, repeats};
  record_scored_ratio(timed.scored());
  ::testing::Test::RecordProperty("repeats", std::to_string(repeats));
  ::testing::Test::RecordProperty("scored_at", timed.one_is_worse() ? "one repeat" : std::to_string(repeats) + " repeats");
  ::testing::Test::RecordProperty("ratio_at_repeats", std::to_string(timed.at_repeats.ratio()));
  ::testing::Test::RecordProperty("ratio_at_one_repeat", std::to_string(timed.at_one.ratio()));
  ::testing::Test::RecordProperty("submission_ms_at_repeats", std::to_string(timed.at_repeats.submission_us / 1000));
  ::testing::Test::RecordProperty("reference_ms_at_repeats", std::to_string(timed.at_repeats.reference_us / 1000));
  ::testing::Test::RecordProperty("submission_ms_one_repeat", std::to_string(timed.at_one.submission_us / 1000));
  ::testing::Test::RecordProperty("reference_ms_one_repeat", std::to_string(timed.at_one.reference_us / 1000));
  const std::string note = timed.note();
  if (!note.empty()) ::testing::Test::RecordProperty("repeats_note", note);
  std::cout << what << ": at " << repeats << " repeats submission " << timed.at_repeats.submission_us
            << " us, reference " << timed.at_repeats.reference_us << " us, ratio " << timed.at_repeats.ratio()
            << "; at one repeat submission " << timed.at_one.submission_us << " us, reference "
            << timed.at_one.reference_us << " us, ratio " << timed.at_one.ratio() << "; scored "
            << timed.scored().ratio() << (note.empty() ? "" : "; " + note) << '\n';
}

inline void time_access_row_against_reference(const access::variant& submission, const access::access_config& config,
                                              const access::variant& reference,
                                              const access::access_config& reference_config, std::size_t n,
                                              const std::string& what) {
  using access::testing::access_case;
  using access::testing::input_kind;
  // Speed is scored only for a right answer at the size timed, at both repeat counts timed (a launcher
  // that refuses, or does nothing, at one repeat would otherwise make its one-pass time nothing).
  const auto input = access::testing::input_for(access_case{&submission, n, config, input_kind::seed_data});
  for (const access::access_config& at : {config, one_repeat(config)}) {
    const check_result right = access::testing::check_access(access_case{&submission, n, at, input_kind::seed_data}, *input);
    ASSERT_TRUE(right.passed()) << "performance is not scored: the submission is wrong at the size timed, " << at.repeats
                                << " repeat(s)\n" << right.message;
  }

  // The timed operands are copies of their own (the shared input stays pristine for other cases), so
  // the check after timing can give them new contents at the same addresses; staged on the timing
  // stream itself (the legacy stream's copies would not be ordered with it).
  device_buffer<float> a(n), b(n), c_sub(n), c_ref(n);
  const cuda_stream stream;
  const auto stage = [&](const access::testing::prepared_input& from) {
    KC_CUDA_TRY(cudaMemcpyAsync(a.data(), from.a_pristine.data(), n * sizeof(float), cudaMemcpyDeviceToDevice, stream.get()));
    KC_CUDA_TRY(cudaMemcpyAsync(b.data(), from.b_pristine.data(), n * sizeof(float), cudaMemcpyDeviceToDevice, stream.get()));
  };
  stage(*input);
  // A launch refused or failed while being timed is remembered and fails the case (a refusal times as
  // nothing).
  std::string timing_refusal;
  const auto work = [&](const access::variant& v, const access::access_config& cfg, device_buffer<float>& c) {
    graded_work graded;
    graded.outputs = {{c.data(), n * sizeof(float), 4}};
    perf::timed_work& w = graded.work;
    w.run = [&v, cfg, &c, &a, &b, n, &timing_refusal](cudaStream_t s) {
      const launch_status launched = access::launch(v, a.data(), b.data(), c.data(), n, cfg, s);
      if (launched.is_ok() || !timing_refusal.empty()) return;
      timing_refusal = std::string(v.name) + " at " + std::to_string(cfg.repeats) + " repeat(s): " + launched.message();
    };
    return graded;
  };
  time_rows_at_repeats_and_one(work(submission, config, c_sub), work(reference, reference_config, c_ref),
                               work(submission, one_repeat(config), c_sub),
                               work(reference, one_repeat(reference_config), c_ref), config.repeats, stream.get(), what);
  ASSERT_TRUE(timing_refusal.empty()) << "a launch did not run while it was timed: " << timing_refusal;

  // New contents at the same addresses, C poisoned, one more call at each repeat count timed, called
  // as the timing called it (run_as_timed: one direct call), so what was timed is judged.
  const auto fresh = access::testing::prepare_input(input_kind::integer, n, case_seed(base_seed(), "Performance.FreshContents"));
  stage(*fresh);
  for (const access::access_config& at : {config, one_repeat(config)}) {
    KC_CUDA_TRY(cudaMemsetAsync(c_sub.data(), 0xFF, n * sizeof(float), stream.get()));
    // A refused or failed launch is its own failure, not a replayed answer.
    const launch_status launched = run_as_timed(
        [&](cudaStream_t st) { return access::launch(submission, a.data(), b.data(), c_sub.data(), n, at, st); }, stream.get());
    ASSERT_TRUE(launched.is_ok()) << launched.message();
    const std::vector<float> got = c_sub.download();
    const access_case fresh_case{&submission, n, at, input_kind::integer};
    if (const std::string problem = access::testing::judge_output(fresh_case, *fresh, got); !problem.empty())
      ADD_FAILURE() << earlier_calls_message("differed from the host reference for the new contents at " +
                                             std::to_string(at.repeats) + " repeat(s) (" + problem + ")");
  }
}

}  // namespace kc::grading
