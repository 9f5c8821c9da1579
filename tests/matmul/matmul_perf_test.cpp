// Matmul performance: is it slower than its stored baseline? (label perf; docs/performance.md)
//
// One case per perf point, all in one CTest test (matmul.perf.AgainstBaseline, one process), run
// alone on the GPU: the many-block variants and cuBLAS at n = 256 (short, ~15–40 µs) and n = 2048 (long,
// ~1–8 ms), each at the configuration the H100 benchmark found best or the report used (SharedTiled
// at both TILE_WIDTH 32 and 16: the tile is a template parameter, so each is its own kernel); the
// single-block MM2 at n = 256 (its n = 1024 takes 0.56 s a launch) and MM1 at its only size, 32.
// Inputs are integers in [-8, 8] (non-zero data; every partial sum is an integer below 64·k <= 2^17,
// so every variant's float result is exact), and the timed product is verified: in full against the
// CPU reference at n = 256 and below, by Freivalds' check at 2048.
//
// Plus the seeds' conclusion that the shared-memory tiled kernel beats the naive one at n = 1024.
#include "fixtures/cublas_handle.hpp"
#include "fixtures/cuda_stream.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/perf_check.hpp"
#include "fixtures/suite_case.hpp"
#include "kernels/matmul/matmul.hpp"
#include "reference/matmul_reference.hpp"

#include <iostream>
#include <sstream>
#include <utility>

namespace kc::matmul::testing {
namespace {

struct matmul_perf_case {
  const variant* v = nullptr;
  int n = 0;
  matmul_config config;
  bool library = false;

  std::string name() const {
    return std::string(v->name) + "N" + std::to_string(n) +
           (library ? std::string("Library") : "B" + std::to_string(config.block) + "TW" + std::to_string(config.tile_width));
  }
  std::string unit() const { return perf::baseline_unit; }
  double cost() const { return 1.0; }
  perf::point_key key() const {
    return {"matmul", std::string(v->name), "n=" + std::to_string(n),
            library ? std::string("library")
                    : "block=" + std::to_string(config.block) + "x" + std::to_string(config.block) +
                          ",tw=" + std::to_string(config.tile_width)};
  }
};
void PrintTo(const matmul_perf_case& c, std::ostream* os) { print_case(c, os); }

std::vector<matmul_perf_case> perf_cases() {
  auto row = [](const char* name, int n, matmul_config config, bool library = false) {
    return matmul_perf_case{find_variant(name), n, config, library};
  };
  std::vector<matmul_perf_case> cases;
  for (const int n : {256, 2048}) {
    cases.push_back(row("OneOutputPerThread", n, {32, 1}));
    cases.push_back(row("PatchPerThread", n, {16, 2}));
    cases.push_back(row("SharedTiled", n, {32, 32}));
    cases.push_back(row("SharedTiled", n, {16, 16}));  // the other TILE_WIDTH a regression could hit alone
    cases.push_back(row("CublasRowMajor", n, {}, true));
  }
  cases.push_back(row("SingleBlockPatch", 256, {32, 8}));
  cases.push_back(row("SingleBlock", 32, {32, 1}));
  return cases;
}

// A product set up for timing, with its exact check.
class timed_product {
 public:
  timed_product(const variant& v, int n, matmul_config config)
      : v_(v), s_{n, n, n}, config_(config), a_host_(static_cast<std::size_t>(n) * n), b_host_(a_host_.size()),
        a_(a_host_.size()), b_(a_host_.size()), c_(a_host_.size()) {
    fill_uniform_integers(a_host_, case_seed(base_seed(), "matmul-perf-a" + std::to_string(n)), -8, 8);
    fill_uniform_integers(b_host_, case_seed(base_seed(), "matmul-perf-b" + std::to_string(n)), -8, 8);
    a_.upload(a_host_);
    b_.upload(b_host_);
  }

  perf::timed_work work() {
    return {[this](cudaStream_t s) {
              status_ = launch(v_, a_.data(), b_.data(), c_.data(), s_, config_, {s, process_cublas_handle()});
            },
            {},
            {}};
  }

  std::string verify(cudaStream_t s) {
    if (!status_) return "the launcher refused: " + status_.message();
    if (auto fault = fault_after_sync(s)) return *fault;
    const std::vector<float> c = c_.download();
    const int n = s_.n;
    if (n <= 256) {
      const std::vector<double> expected = reference::matmul(a_host_, b_host_, n, n, n);
      for (std::size_t i = 0; i < c.size(); ++i)
        if (static_cast<double>(c[i]) != expected[i]) {
          std::ostringstream out;
          out << "C[" << i / n << "][" << i % n << "] = " << c[i] << ", expected " << expected[i];
          return out.str();
        }
      return {};
    }
    // Wrong C passes 8 vectors with probability <= 2048^-8 (reference/matmul_reference.hpp).
    const reference::freivalds_outcome f = reference::freivalds(a_host_, b_host_, c, n, n, n, 8, case_seed(base_seed(), "perf"));
    if (f.consistent) return {};
    std::ostringstream out;
    out << "Freivalds: row " << f.failing_row << " of C·x is " << f.actual << ", A·(B·x) gives " << f.expected;
    return out.str();
  }

 private:
  const variant& v_;
  shape s_;
  matmul_config config_;
  std::vector<float> a_host_, b_host_;
  device_buffer<float> a_, b_, c_;
  launch_status status_ = launch_status::ok();
};

class MatmulPerf : public ::testing::TestWithParam<matmul_perf_case> {};

TEST_P(MatmulPerf, NotSlowerThanBaseline) {
  KC_REQUIRE_GPU();
  const matmul_perf_case& c = GetParam();
  ASSERT_NE(c.v, nullptr);
  cuda_stream stream;
  timed_product timed(*c.v, c.n, c.config);
  perf::perf_point point{c.key(), timed.work(), [&](cudaStream_t s) { return timed.verify(s); }, {}};
  KC_EXPECT_NOT_SLOWER(point, stream.get());
}

INSTANTIATE_TEST_SUITE_P(Matmul, MatmulPerf, ::testing::ValuesIn(perf_cases()), case_param_name<matmul_perf_case>);

// ---- the seeds' conclusions that hold from first principles (no baseline needed) ----

using perf::conclusion_case;

class SeedConclusions : public ::testing::TestWithParam<conclusion_case> {};

// The tiled kernel reads each A and B element from device memory n / TILE_WIDTH times instead of n
// times (the rest from shared memory), so at n = 1024 — 12 MiB of inputs, a product of 2^30
// multiply-adds — it beats the naive one-output-per-thread kernel (0.247 vs 0.338 ms on an H100,
// each at its best block). Asserted: SharedTiled 32x32 is faster than OneOutputPerThread 32x32.
TEST_P(SeedConclusions, Holds) {
  KC_REQUIRE_GPU();
  ASSERT_EQ(GetParam().id, "TiledBeatsNaiveAt1024");
  cuda_stream stream;
  auto median_us = [&](const char* name, matmul_config config) {
    timed_product timed(*find_variant(name), 1024, config);
    const perf::sample_stats stats = perf::measure(timed.work(), stream.get());
    EXPECT_EQ(timed.verify(stream.get()), "") << name << " computed a wrong product while timed";
    return stats.median_us;
  };
  const double naive = median_us("OneOutputPerThread", {32, 1});
  const double tiled = median_us("SharedTiled", {32, 32});
  std::cout << "n = 1024: OneOutputPerThread " << naive << " us, SharedTiled " << tiled << " us (" << naive / tiled
            << "x)\n";
  EXPECT_LT(tiled, naive) << "SharedTiled " << tiled << " us, OneOutputPerThread " << naive << " us";
}

INSTANTIATE_TEST_SUITE_P(Matmul, SeedConclusions, ::testing::Values(conclusion_case{"TiledBeatsNaiveAt1024"}),
                         case_param_name<conclusion_case>);

}  // namespace
}  // namespace kc::matmul::testing
