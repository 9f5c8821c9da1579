// The performance case of the families whose submission is a row of the access registry (access's
// AC1, divergence's DV1, occupancy's vector add): the submission's row against the suite's reference
// row, both on the seed's data at n elements, after the submission is shown right at that size; then
// the fresh-contents check (graded_performance.hpp): the integer input of another seed at the same
// addresses, C poisoned, one more call, judged by the conformance check's own comparison
// (access::testing::judge_output: every element one IEEE operation on its inputs, so bit for bit).
// The caller records the case first (record_performance_case).
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

#include <string>
#include <vector>

namespace kc::grading {

inline void time_access_row_against_reference(const access::variant& submission, const access::access_config& config,
                                              const access::variant& reference,
                                              const access::access_config& reference_config, std::size_t n,
                                              const std::string& what) {
  using access::testing::access_case;
  using access::testing::input_kind;
  // Speed is scored only for a right answer at the size timed.
  const access_case timed{&submission, n, config, input_kind::seed_data};
  const auto input = access::testing::input_for(timed);
  const check_result right = access::testing::check_access(timed, *input);
  ASSERT_TRUE(right.passed()) << "performance is not scored: the submission is wrong at the size timed\n" << right.message;

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
  const auto work = [&](const access::variant& v, const access::access_config& cfg, device_buffer<float>& c) {
    perf::timed_work w;
    w.run = [&v, cfg, &c, &a, &b, n](cudaStream_t s) { (void)access::launch(v, a.data(), b.data(), c.data(), n, cfg, s); };
    return w;
  };
  time_against_reference(work(submission, config, c_sub), work(reference, reference_config, c_ref), stream.get(), what);

  const auto fresh = access::testing::prepare_input(input_kind::integer, n, case_seed(base_seed(), "Performance.FreshContents"));
  stage(*fresh);
  KC_CUDA_TRY(cudaMemsetAsync(c_sub.data(), 0xFF, n * sizeof(float), stream.get()));
  // A refused or failed launch is its own failure, not a replayed answer.
  const launch_status launched = access::launch(submission, a.data(), b.data(), c_sub.data(), n, config, stream.get());
  ASSERT_TRUE(launched.is_ok()) << launched.message();
  KC_CUDA_TRY(cudaStreamSynchronize(stream.get()));
  const std::vector<float> got = c_sub.download();
  const access_case fresh_case{&submission, n, config, input_kind::integer};
  if (const std::string problem = access::testing::judge_output(fresh_case, *fresh, got); !problem.empty())
    ADD_FAILURE() << earlier_calls_message("differed from the host reference for the new contents (" + problem + ")");
}

}  // namespace kc::grading
