// The occupancy calculator against the CUDA runtime (issue 9 §3): for every kernel the suite
// launches, at every block size its sweep launches it with, the CPU calculator fed with
// cudaFuncGetAttributes' registers and static shared memory, the launcher's dynamic shared memory
// and the device's properties must give exactly cudaOccupancyMaxActiveBlocksPerMultiprocessor's
// blocks per SM. One case per (kernel, block): Occupancy/Calculator.MatchesRuntime/SharedTiled16T256.
// The launches come from each family's own sweep (every_case_of: the one a correct variant faces),
// so a new block size or variant is checked as soon as the family sweeps it. Libraries (CUB,
// cuBLAS) pick their own kernels and are not covered.
#include "fixtures/cuda_check.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"
#include "kernels/access/access.hpp"
#include "kernels/matmul/matmul.hpp"
#include "kernels/polybench/conv2d/conv2d.hpp"
#include "kernels/polybench/covariance/covariance.hpp"
#include "kernels/reduction/reduction.hpp"
#include "reference/occupancy.hpp"
#include "tests/access/access_cases.hpp"
#include "tests/matmul/matmul_checks.hpp"
#include "tests/matmul/report_cases.hpp"
#include "tests/polybench/conv2d_cases.hpp"
#include "tests/polybench/covariance_cases.hpp"
#include "tests/reduction/reduction_cases.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace kc::occupancy {
namespace {

// One launch a family's sweep makes: the registry row and the kernel with its block.
struct swept_launch {
  std::string variant;
  kernel_handle handle;
};

// One GoogleTest case (fixtures/suite_case.hpp): a kernel at one block size.
struct occupancy_case {
  std::string family;
  kernel_handle handle;
  std::vector<std::string> launched_by;  // the registry rows whose sweep launches it: SingleBlock, OneOutputPerThread

  std::string rows() const {
    std::string text;
    for (const std::string& row : launched_by) text += (text.empty() ? "" : ", ") + row;
    return text;
  }

  // "SequentialAddressingT256Smem1024" (kernel, threads per block, dynamic shared memory),
  // "SharedTiled16T256"; "SumVariantNoKernelHandle" for a launch with no handle registered.
  std::string name() const {
    if (!handle) return launched_by.front() + "NoKernelHandle";
    std::string camel;
    bool word_start = true;
    for (const char ch : handle.kernel) {
      if (std::isalnum(static_cast<unsigned char>(ch)) == 0) {
        word_start = true;
        continue;
      }
      camel += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
      word_start = false;
    }
    camel += "T" + std::to_string(handle.block_threads);
    if (handle.dynamic_shared_bytes > 0) camel += "Smem" + std::to_string(handle.dynamic_shared_bytes);
    return camel;
  }
  std::string unit() const { return family; }  // one process per family: each case is two runtime queries
  double cost() const { return 0.001; }
};
void PrintTo(const occupancy_case& c, std::ostream* os) { print_case(c, os); }

// ---- each family's launches, from its own sweep. A family adds a function here and a line to
// `families` below. ----

// Reduction: every block of every case's passes (later passes of the multi-pass driver shrink the
// block to the power of two covering what is left, so they launch blocks the first pass may not).
std::vector<swept_launch> reduction_launches() {
  namespace rd = kc::reduction;
  std::vector<swept_launch> launches;
  const device_limits h100 = device_limits::hopper_h100();  // the plans' blocks do not depend on it
  for (const rd::variant& v : rd::correct_variants()) {
    if (!v.has_pass()) continue;  // a library: picks its own kernels
    for (const rd::testing::reduction_case& c : rd::testing::every_case_of(v))
      for (const rd::pass_geometry& pass : rd::plan_multipass(v, c.n, c.config, h100).passes)
        launches.push_back({std::string(v.name), rd::kernel_handle_of(v, pass.block)});
  }
  return launches;
}

// Matmul: every configuration of every case, and the report's own launches.
std::vector<swept_launch> matmul_launches() {
  namespace mm = kc::matmul;
  std::vector<swept_launch> launches;
  for (const mm::variant& v : mm::correct_variants())
    for (const mm::testing::matmul_case& c : mm::testing::every_case_of(v))
      if (c.config.block > 0) launches.push_back({std::string(v.name), mm::kernel_handle_of(v, c.config)});  // block 0: cuBLAS
  for (const mm::testing::report_case& r : mm::testing::report_cases())
    if (const mm::variant* v = mm::find_variant(r.variant); v != nullptr && r.block > 0)
      launches.push_back({std::string(v->name), mm::kernel_handle_of(*v, {r.block, r.tile_width})});
  return launches;
}

// Access: every block of every case (the S1/S2 scenario blocks included).
std::vector<swept_launch> access_launches() {
  namespace ac = kc::access;
  std::vector<swept_launch> launches;
  for (const ac::variant& v : ac::correct_variants())
    for (const ac::testing::access_case& c : ac::testing::every_case_of(v))
      launches.push_back({std::string(v.name), ac::kernel_handle_of(v, c.config)});
  return launches;
}

// PolyBench Conv2D: every 2-D block of every case (the shared-tile kernel with its halo tile).
// (ATAX launches two kernels per variant and has no handles yet.)
std::vector<swept_launch> conv2d_launches() {
  namespace cv = kc::polybench::conv2d;
  std::vector<swept_launch> launches;
  for (const cv::variant& v : cv::correct_variants())
    for (const cv::testing::conv2d_case& c : cv::testing::every_case_of(v))
      launches.push_back({std::string(v.name), cv::kernel_handle_of(v, c.config)});
  return launches;
}

// PolyBench covariance: the tiled product kernel (the pipeline's heaviest) at every tile it sweeps;
// the cuBLAS peer picks its own kernels.
std::vector<swept_launch> covariance_launches() {
  namespace cov = kc::polybench::covariance;
  std::vector<swept_launch> launches;
  for (const cov::variant& v : cov::correct_variants())
    if (v.product == cov::product_kind::tiled)
      for (const cov::testing::covariance_case& c : cov::testing::every_case_of(v))
        launches.push_back({std::string(v.name), cov::kernel_handle_of(v, c.config)});
  return launches;
}

struct family_launches {
  const char* family;
  std::vector<swept_launch> (*launches)();
};
const family_launches families[] = {
    {"reduction", reduction_launches},
    {"matmul", matmul_launches},
    {"access", access_launches},
    {"polybench_conv2d", conv2d_launches},
    {"polybench_covariance", covariance_launches},
};

// One case per distinct (function, threads, dynamic shared memory), naming every row that launches it.
std::vector<occupancy_case> all_cases() {
  std::vector<occupancy_case> cases;
  for (const family_launches& f : families) {
    const std::size_t first = cases.size();
    std::map<std::tuple<const void*, int, std::size_t>, std::size_t> seen;
    std::set<std::string> missing;
    for (swept_launch& launch : f.launches()) {
      if (!launch.handle) {  // a swept launch with no kernel handle: one case per row, failing and saying so
        if (missing.insert(launch.variant).second) cases.push_back({f.family, {}, {launch.variant}});
        continue;
      }
      const auto key = std::make_tuple(launch.handle.function, launch.handle.block_threads, launch.handle.dynamic_shared_bytes);
      if (const auto it = seen.find(key); it != seen.end()) {
        std::vector<std::string>& rows = cases[it->second].launched_by;
        if (std::find(rows.begin(), rows.end(), launch.variant) == rows.end()) rows.push_back(launch.variant);
        continue;
      }
      seen.emplace(key, cases.size());
      cases.push_back({f.family, std::move(launch.handle), {launch.variant}});
    }
    // Each kernel's blocks in increasing order, kernels in the order the sweep first launches them.
    std::map<std::string, std::size_t> kernel_order;
    for (std::size_t i = first; i < cases.size(); ++i) kernel_order.emplace(cases[i].handle.kernel, kernel_order.size());
    std::stable_sort(cases.begin() + static_cast<std::ptrdiff_t>(first), cases.end(), [&](const occupancy_case& a, const occupancy_case& b) {
      return std::make_pair(kernel_order[a.handle.kernel], a.handle.block_threads) <
             std::make_pair(kernel_order[b.handle.kernel], b.handle.block_threads);
    });
  }
  return cases;
}

// The device's SM, read once per process.
const sm_limits& device_sm() {
  static const sm_limits sm = [] {
    cudaDeviceProp p{};
    KC_CUDA_TRY(cudaGetDeviceProperties(&p, gpu::current().device));
    return sm_limits::from_device_properties(p);
  }();
  return sm;
}

check_result check_occupancy(const occupancy_case& c) {
  const kernel_handle& h = c.handle;
  cudaFuncAttributes attributes{};
  KC_CUDA_TRY(cudaFuncGetAttributes(&attributes, h.function));
  int runtime_blocks = -1;
  KC_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runtime_blocks, h.function, h.block_threads, h.dynamic_shared_bytes));

  const sm_limits& sm = device_sm();
  const kernel_resources k{h.block_threads, attributes.numRegs, attributes.sharedSizeBytes, h.dynamic_shared_bytes,
                           attributes.sharedSizeBytes + attributes.maxDynamicSharedSizeBytes > sm.shared_memory_per_block};
  std::ostringstream where;
  where << h.kernel << " (" << c.family << ": " << c.rows() << "), " << h.block_threads << " threads per block, "
        << attributes.numRegs << " registers per thread, " << attributes.sharedSizeBytes << " B static + "
        << h.dynamic_shared_bytes << " B dynamic shared memory, on " << sm.device;
  const outcome calculated = calculate(sm, k);
  if (!calculated) return check_result::fail(where.str() + ": the calculator refused it: " + calculated.error);
  const occupancy& o = *calculated.value;
  ::testing::Test::RecordProperty("registers", attributes.numRegs);
  ::testing::Test::RecordProperty("active_blocks", runtime_blocks);
  ::testing::Test::RecordProperty("occupancy", std::to_string(o.fraction));
  ::testing::Test::RecordProperty("bound_by", o.binding_names());
  if (o.active_blocks_per_sm != runtime_blocks)
    return check_result::fail(where.str() + ": the calculator says " + std::to_string(o.active_blocks_per_sm) +
                              " blocks per SM, cudaOccupancyMaxActiveBlocksPerMultiprocessor " +
                              std::to_string(runtime_blocks) + "; calculator: " + o.describe());
  // The suite launches this configuration, so at least one block must fit.
  if (runtime_blocks < 1) return check_result::fail(where.str() + ": no block fits an SM, yet the sweep launches it");
  return check_result::pass();
}

class Calculator : public ::testing::TestWithParam<occupancy_case> {};

TEST_P(Calculator, MatchesRuntime) {
  KC_REQUIRE_GPU();
  const occupancy_case& c = GetParam();
  ASSERT_TRUE(c.handle) << c.rows() << " (" << c.family << ") is swept but has no kernel handle: register its "
                        << "__global__ function in kernels/" << c.family << "/kernel_handles.cpp";
  expect_case_passed(check_occupancy(c));
}

INSTANTIATE_TEST_SUITE_P(Occupancy, Calculator, ::testing::ValuesIn(all_cases()), case_param_name<occupancy_case>);

}  // namespace
}  // namespace kc::occupancy
