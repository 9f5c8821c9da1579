// Access performance (label perf; docs/performance.md): seed 003's kernels against their stored
// per-GPU baseline, and the seed's conclusions as in-run ratio assertions.
//
// Baseline points (AccessPerf): every correct variant at the seed's configuration — blocks of 1024,
// 100 repeats, the seed's data A[i] = i + 1, B[i] = i + 2 — at the seed's two sizes, n = 4,194,304
// (48 MiB of A, B and C: memory-bound, and for the cuRAND rows ~12–16 ms of curand_init and gather)
// and n = 32,768 (384 KiB, L2-resident: launch- and latency-bound); and the occupancy scenarios'
// VectorAdd with S1 and S2 blocks at 10,000 repeats (the seed's 1,000,000, scaled to milliseconds)
// at n = 65,536 (the seed's largest, where S1 and S2 pick the same block) and n = 4,096 (S1 one block
// of 1024, S2 sixteen of 256). All run in one CTest test (access.perf.AgainstBaseline, one process),
// alone on the GPU. After timing, C is poisoned (NaN), the point launched once more and C judged by the
// conformance suite's own oracle (judge_output: the exact reference, or the cuRAND rows' index,
// group and spread oracles).
//
// In-run conclusions (SeedConclusions): each compares kernels measured in one process on the same
// inputs, interleaved (A, B, A, B, ...: perf::measure_interleaved, 20 rounds, the median of the round
// medians), so drift falls on both. The margin of every ordering is the measured noise itself: "X is
// slower than Y" means median(X) > median(Y) · (1 + spread(X) + spread(Y)), where spread is the
// interquartile range of that kernel's round medians in this run, relative to their median. A ratio
// holds across GPUs; an absolute time would not.
#include "fixtures/cuda_check.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/measurement.hpp"
#include "fixtures/perf_check.hpp"
#include "fixtures/suite_case.hpp"
#include "kernels/access/access.hpp"
#include "tests/access/access_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kc::access::testing {
namespace {

// ---- points against the stored baseline ----

struct access_perf_case {
  const variant* v = nullptr;
  std::size_t n = 0;
  access_config config;

  // The conformance case's name: "FullCoalescedN4194304B1024R100SeedData", "VectorAddN4096S2B256R10000SeedData"
  std::string name() const { return as_case().name(); }
  std::string unit() const { return perf::baseline_unit; }
  double cost() const { return 1.0; }
  perf::point_key key() const {
    const std::string scenario = config.from == scenario::none ? "" : std::string(name_of(config.from)) + ",";
    return {"access", std::string(v->name), "n=" + std::to_string(n),
            scenario + "block=" + std::to_string(config.block) + ",repeats=" + std::to_string(config.repeats)};
  }
  access_case as_case() const { return {v, n, config, input_kind::seed_data}; }
};
void PrintTo(const access_perf_case& c, std::ostream* os) { print_case(c, os); }

constexpr int seed_block = 1024;
constexpr int scenario_repeats = 10'000;

std::vector<access_perf_case> perf_cases() {
  std::vector<access_perf_case> cases;
  for (const variant& v : correct_variants()) {
    if (v.scenario_blocks) {
      for (const std::size_t n : {std::size_t{65'536}, std::size_t{4'096}})
        for (const scenario s : {scenario::s1, scenario::s2}) {
          // At 65,536 both scenarios launch blocks of 1024: one point, named S1.
          if (s == scenario::s2 && scenario_block(scenario::s2, n, 0) == scenario_block(scenario::s1, n, 0)) continue;
          cases.push_back({&v, n, access_config{scenario_block(s, n, 0), scenario_repeats, index_seed(n), s}});
        }
      continue;
    }
    for (const std::size_t n : {std::size_t{4'194'304}, std::size_t{32'768}})
      cases.push_back({&v, n, access_config{seed_block, seed_repeats, index_seed(n), scenario::none}});
  }
  return cases;
}

// A point set up for timing on the seed's data, with the oracle check of its output.
class timed_access {
 public:
  explicit timed_access(const access_perf_case& c)
      : c_(c), input_(prepare_input(input_kind::seed_data, c.n, case_seed(base_seed(), "AccessPerfN" + std::to_string(c.n)))),
        out_(c.n) {}

  perf::timed_work work() {
    return {[this](cudaStream_t s) {
              status_ = launch(*c_.v, input_->a_pristine.data(), input_->b_pristine.data(), out_.data(), c_.n, c_.config, s);
            },
            {},
            {}};
  }

  // C poisoned, one more launch, every element judged.
  std::string verify(cudaStream_t s) {
    if (!status_) return "the launcher refused: " + status_.message();
    KC_CUDA_TRY(cudaMemsetAsync(out_.data(), 0xFF, c_.n * sizeof(float), s));
    status_ = launch(*c_.v, input_->a_pristine.data(), input_->b_pristine.data(), out_.data(), c_.n, c_.config, s);
    if (!status_) return "the launcher refused: " + status_.message();
    if (auto fault = fault_after_sync(s)) return *fault;
    const std::vector<float> actual = out_.download();
    return judge_output(c_.as_case(), *input_, actual);
  }

 private:
  access_perf_case c_;
  std::shared_ptr<const prepared_input> input_;
  device_buffer<float> out_;
  launch_status status_ = launch_status::ok();
};

class AccessPerf : public ::testing::TestWithParam<access_perf_case> {};

TEST_P(AccessPerf, NotSlowerThanBaseline) {
  KC_REQUIRE_GPU();
  const access_perf_case& c = GetParam();
  cuda_stream stream;
  timed_access timed(c);
  perf::perf_point point{c.key(), timed.work(), [&](cudaStream_t s) { return timed.verify(s); }, {}};
  KC_EXPECT_NOT_SLOWER(point, stream.get());
}

INSTANTIATE_TEST_SUITE_P(Access, AccessPerf, ::testing::ValuesIn(perf_cases()), case_param_name<access_perf_case>);

// ---- the seed's conclusions, within one run ----

using perf::conclusion_case;

perf::timed_work launching(const char* variant, seed_data_buffers& buffers, std::size_t n, const access_config& config) {
  return {[variant, &buffers, n, config](cudaStream_t s) {
            const launch_status status = launch_by_name(variant, buffers.a.data(), buffers.b.data(), buffers.c.data(), n, config, s);
            if (!status) throw std::runtime_error(std::string(variant) + " refused: " + status.message());
          },
          {},
          {}};
}

// median(slow) > median(fast) · (1 + both spreads).
::testing::AssertionResult slower(const perf::interleaved_timing& slow, const char* slow_name,
                                  const perf::interleaved_timing& fast, const char* fast_name) {
  const double margin = slow.spread + fast.spread;
  std::ostringstream what;
  what << slow_name << " " << slow.median_us << " us (spread " << 100.0 * slow.spread << "%) vs " << fast_name << " "
       << fast.median_us << " us (spread " << 100.0 * fast.spread << "%): ratio " << slow.median_us / fast.median_us
       << ", needed > " << 1.0 + margin;
  std::cout << what.str() << '\n';
  if (slow.median_us > fast.median_us * (1.0 + margin)) return ::testing::AssertionSuccess() << what.str();
  return ::testing::AssertionFailure() << what.str();
}

class SeedConclusions : public ::testing::TestWithParam<conclusion_case> {};

TEST_P(SeedConclusions, Holds) {
  KC_REQUIRE_GPU();
  const std::string& id = GetParam().id;
  cuda_stream stream;
  if (id == "AccessPatternsOrderAsReported") {
    // Seed 003 at n = 4,194,304, 1024 threads, 100 repeats: AC1 0.0099 ms, AC3 0.2214, AC2 0.5167 (K40).
    // AC1 moves one 128-byte line per warp request, AC3 about 25 of a 2 KiB group's 64 sectors, AC2
    // 32 scattered sectors — so AC1 < AC3 < AC2 wherever memory transactions cost. The ordering of
    // the patterns is asserted on the hashed twins (the same patterns, no generator): the cuRAND
    // kernels' own time is dominated by curand_init's skip-ahead in every thread (on an H200,
    // AC2 12.1 ms < AC3 16.0 ms, the reverse of the pattern's order), so of them only "slower than
    // AC1" is asserted (measured: 28x and 37x).
    const std::size_t n = 4'194'304;
    seed_data_buffers buffers(n);
    access_config config;
    config.block = 1024;
    config.repeats = 100;
    const std::vector<perf::interleaved_timing> t = perf::measure_interleaved(
        {launching("FullCoalesced", buffers, n, config), launching("SemiCoalescedHashed", buffers, n, config),
         launching("NonCoalescedHashed", buffers, n, config), launching("SemiCoalesced", buffers, n, config),
         launching("NonCoalesced", buffers, n, config)},
        // 8 rounds, not 20: the cuRAND kernels take 12-16 ms a launch on an H100, so 20 rounds were
        // ~10 s of the run's alone phase (issue 21), while the ratios asserted are 1.9x to 34x
        // against margins of a few percent; 8 round medians still give their quartiles.
        stream.get(), 8);
    EXPECT_TRUE(slower(t[1], "SemiCoalescedHashed (AC3r)", t[0], "FullCoalesced (AC1)"));
    EXPECT_TRUE(slower(t[2], "NonCoalescedHashed (AC2r)", t[1], "SemiCoalescedHashed (AC3r)"));
    EXPECT_TRUE(slower(t[3], "SemiCoalesced (AC3)", t[0], "FullCoalesced (AC1)"));
    EXPECT_TRUE(slower(t[4], "NonCoalesced (AC2)", t[0], "FullCoalesced (AC1)"));
  } else if (id == "DivergenceIsSlower") {
    // DV2 branches by tid % 4, so every warp runs all four paths one after another; DV1 branches by
    // warp, one path each. Seed: 3.10x slower (K40), 34.8% warp execution efficiency.
    const std::size_t n = 4'194'304;
    seed_data_buffers buffers(n);
    access_config config;
    config.block = 1024;
    config.repeats = 100;
    const std::vector<perf::interleaved_timing> t = perf::measure_interleaved(
        {launching("WarpNoDivergence", buffers, n, config), launching("WarpDivergence", buffers, n, config)}, stream.get());
    EXPECT_TRUE(slower(t[1], "WarpDivergence (DV2)", t[0], "WarpNoDivergence (DV1)"));
  } else if (id == "ScenarioS2NotSlowerThanS1") {
    // The seed's point: S2's smaller blocks have a lower theoretical occupancy per SM but spread the
    // same threads over more SMs, so S2 is never slower than S1 beyond the noise. Checked at sizes
    // where the two differ (n <= 8192: S1 is one block of up to 1024 threads there).
    for (const std::size_t n : {std::size_t{1024}, std::size_t{4096}, std::size_t{8192}}) {
      seed_data_buffers buffers(n);
      access_config s1, s2;
      s1.repeats = s2.repeats = 10'000;  // the seed's 1,000,000, scaled so a launch takes ~milliseconds
      s1.block = scenario_block(scenario::s1, n, 0);
      s1.from = scenario::s1;
      s2.block = scenario_block(scenario::s2, n, 0);
      s2.from = scenario::s2;
      const std::vector<perf::interleaved_timing> t = perf::measure_interleaved(
          {launching("VectorAdd", buffers, n, s1), launching("VectorAdd", buffers, n, s2)}, stream.get());
      // Capped, so a noisy run cannot pass "not slower" by widening its own margin.
      const double margin = std::min(0.05, t[0].spread + t[1].spread);
      std::cout << "n = " << n << ": S1 (block " << s1.block << ") " << t[0].median_us << " us, S2 (block " << s2.block
                << ") " << t[1].median_us << " us, S2/S1 " << t[1].median_us / t[0].median_us << "\n";
      EXPECT_LE(t[1].median_us, t[0].median_us * (1.0 + margin))
          << "n = " << n << ": S2 " << t[1].median_us << " us, S1 " << t[0].median_us << " us, noise margin " << margin;
    }
  } else {
    FAIL() << "unknown conclusion " << id;
  }
}

INSTANTIATE_TEST_SUITE_P(Access, SeedConclusions,
                         ::testing::Values(conclusion_case{"AccessPatternsOrderAsReported"},
                                           conclusion_case{"DivergenceIsSlower"},
                                           conclusion_case{"ScenarioS2NotSlowerThanS1"}),
                         ::kc::case_param_name<conclusion_case>);

}  // namespace
}  // namespace kc::access::testing
