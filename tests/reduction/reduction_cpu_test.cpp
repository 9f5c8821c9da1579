// CPU-only tests of the reduction family's host logic: the multi-pass planner against seed 000's
// tables, launch-config validation and its messages, and the registry against KERNELS.md §1–2.
#include "kernels/reduction/reduction.hpp"
#include "fixtures/error_bounds.hpp"
#include "reference/reduction_reference.hpp"
#include "tests/reduction/reduction_cases.hpp"
#include "tests/reduction/reduction_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <map>
#include <set>

namespace kc::reduction {
namespace {

const device_limits h100 = device_limits::hopper_h100();

const variant& named(std::string_view name) {
  const variant* v = find_variant(name);
  if (v == nullptr) throw std::runtime_error("no variant " + std::string(name));
  return *v;
}

struct pass_row {
  std::size_t n;
  std::size_t blocks;
  int threads;
};

void expect_plan(const multipass_plan& plan, const std::vector<pass_row>& rows) {
  ASSERT_EQ(plan.passes.size(), rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    SCOPED_TRACE("pass " + std::to_string(k + 1));
    EXPECT_EQ(plan.passes[k].n, rows[k].n);
    EXPECT_EQ(plan.passes[k].grid, rows[k].blocks);
    EXPECT_EQ(plan.passes[k].block, rows[k].threads);
  }
}

// Seed 000's first table (kernels 1–3, n = 2^24, 64 threads): reproduced pass for pass.
TEST(ReductionPlanner, ReproducesSeed000TableForKernels1To3) {
  for (const char* name : {"InterleavedDivergent", "InterleavedStrided", "SequentialAddressing"}) {
    SCOPED_TRACE(name);
    const multipass_plan plan = plan_multipass(named(name), std::size_t{1} << 24, {64, 0}, h100);
    expect_plan(plan, {{16777216, 262144, 64}, {262144, 4096, 64}, {4096, 64, 64}, {64, 1, 64}});
    // Pass 1 reads A and writes B, pass 2 B -> A, ...: after four passes the value is in A.
    EXPECT_FALSE(plan.result_in_scratch);
    EXPECT_EQ(plan.scratch_elements, 262144u);
  }
}

// Seed 000's second table (kernels 4–5): 16777216 -> 131072 x 64, 131072 -> 2048 x 64,
// 2048 -> 32 x 64, 32 -> 1 x 32. Its first pass halves the blocks (two inputs per thread) but its
// passes 2 and 3 launch as if one input per thread — twice the blocks the input needs. The planner
// launches only the blocks needed (131072 -> 1024, 1024 -> 8, 8 -> 1 x 32), and the report's
// oversized grids are still valid configurations: the extra blocks find no input and write 0.
TEST(ReductionPlanner, Seed000TableForKernels4And5) {
  for (const char* name : {"FirstAddDuringLoad", "UnrolledLastWarp"}) {
    SCOPED_TRACE(name);
    const variant& v = named(name);
    const multipass_plan plan = plan_multipass(v, std::size_t{1} << 24, {64, 0}, h100);
    expect_plan(plan, {{16777216, 131072, 64}, {131072, 1024, 64}, {1024, 8, 64}, {8, 1, 32}});
    EXPECT_TRUE(validate_pass(v, 131072, {64, 2048}, h100));
    EXPECT_TRUE(validate_pass(v, 2048, {64, 32}, h100));
    EXPECT_TRUE(validate_pass(v, 32, {32, 1}, h100));
  }
}

TEST(ReductionPlanner, EveryPlanEndsInOneValueAndAlternatesBuffers) {
  for (const variant& v : correct_variants()) {
    if (!v.has_pass()) continue;
    for (const std::size_t n : testing::swept_sizes())
      for (const int block : v.swept_blocks()) {
        SCOPED_TRACE(std::string(v.name) + " n=" + std::to_string(n) + " block=" + std::to_string(block));
        const multipass_plan plan = plan_multipass(v, n, {block, 0}, h100);
        ASSERT_FALSE(plan.passes.empty());
        EXPECT_EQ(plan.passes.front().block, block) << "the first pass runs the block under test";
        EXPECT_EQ(plan.passes.back().grid, 1u);
        EXPECT_EQ(plan.result_in_scratch, plan.passes.size() % 2 == 1);
        for (std::size_t k = 0; k < plan.passes.size(); ++k) {
          const pass_geometry& pass = plan.passes[k];
          EXPECT_TRUE(validate_pass(v, pass.n, {pass.block, 0}, h100)) << "pass " << k + 1;
          if (k > 0) EXPECT_EQ(pass.n, plan.passes[k - 1].grid);
          if (v.pass.grid == grid_policy::one_block_per_chunk) EXPECT_GE(pass.grid * pass.chunk_elements, pass.n);
          if (k % 2 == 0) EXPECT_LE(pass.grid, plan.scratch_elements) << "scratch must hold every pass's output";
        }
      }
  }
}

TEST(ReductionPlanner, SummationDepthCountsSequentialAndTreeAdds) {
  // K3, block 256, one chunk per block: 1 item per thread, a tree of depth 8, +1 for the
  // add into a zero accumulator.
  EXPECT_EQ((pass_geometry{1000, 256, 4, 256}.summation_depth()), 10u);
  // Grid-stride: 100 chunks over 10 blocks, 2 per thread -> 20 sequential adds + 8 + 1.
  EXPECT_EQ((pass_geometry{100 * 512, 256, 10, 512}.summation_depth()), 29u);
}

TEST(ReductionValidation, RefusesWithMessagesAStudentCanActOn) {
  const variant& k3 = named("SequentialAddressing");
  const auto message = [&](const variant& v, std::size_t n, reduce_config c) {
    const launch_status s = validate_pass(v, n, c, h100);
    EXPECT_FALSE(s) << "accepted n=" << n << ' ' << c.describe();
    EXPECT_EQ(s.what(), launch_status::kind::refused);
    return s.message();
  };
  EXPECT_EQ(message(k3, 0, {256, 0}), "n = 0: there is nothing to reduce (n must be >= 1)");
  EXPECT_EQ(message(k3, 100, {96, 0}),
            "block 96 is not a power of two: SequentialAddressing halves the active threads each step, so it needs one "
            "of 32, 64, 128, 256, 512, 1024");
  EXPECT_EQ(message(k3, 100, {2048, 0}), "block 2048 exceeds this device's limit of 1024 threads per block");
  EXPECT_EQ(message(k3, 100, {16, 0}), "block 16 is outside SequentialAddressing's range: use 32, 64, 128, 256, 512, 1024");
  EXPECT_EQ(message(named("FirstAddDuringLoad"), 20000, {64, 100}),
            "grid 100 covers 12800 of n = 20000 elements (block 64, 2 per thread): needs >= 157 blocks");
  EXPECT_EQ(message(named("WarpShuffle"), 100, {100, 0}),
            "block 100 is not a multiple of 32 (whole warps): use a multiple of 32 from 32 to 1024");
  EXPECT_EQ(message(named("VolatileWarpUnroll"), 100, {32, 0}),
            "block 32 is outside VolatileWarpUnroll's range: use 64, 128, 256, 512, 1024");
  EXPECT_EQ(message(named("CubDeviceReduce"), 100, {0, 0}),
            "CubDeviceReduce is a library reduction: it has no single pass to launch");

  device_limits small_grid = h100;
  small_grid.max_grid_x = 65535;  // pre-Kepler-style grid limit
  const launch_status too_big = validate_pass(k3, std::size_t{1} << 26, {32, 0}, small_grid);
  EXPECT_FALSE(too_big);
  EXPECT_NE(too_big.message().find("more than this device's grid limit of 65535"), std::string::npos) << too_big.message();
  EXPECT_TRUE(validate_pass(named("GridStrideUnroll"), std::size_t{1} << 26, {32, 0}, small_grid));
}

TEST(ReductionValidation, AcceptsEverySweptConfiguration) {
  for (const testing::reduction_case& c : testing::sweep_pass_variants(correct_variants()))
    EXPECT_TRUE(validate_pass(*c.v, c.n, c.config, h100)) << c.name();
}

// Every kernel of KERNELS.md §1–2 has a correct variant, and every known bug the catalog lists
// has its known-bad variant.
TEST(ReductionRegistry, CoversTheCatalog) {
  std::set<std::string_view> catalog_ids;
  for (const variant& v : correct_variants()) {
    EXPECT_FALSE(v.is_known_bad()) << v.name;
    catalog_ids.insert(v.catalog_id);
  }
  for (const char* id : {"K1", "K2", "K3", "K4", "K5", "K6", "K7", "Shuffle", "CUB", "Str2", "Str3"})
    EXPECT_TRUE(catalog_ids.count(id)) << "KERNELS.md kernel " << id << " has no correct variant";
  for (const char* name : {"Str2AsWritten", "Str3AsWritten", "VolatileWarpUnroll", "SequentialTidLeS", "UnguardedSecondLoad",
                           "WrongFinalBuffer"}) {
    const variant* v = find_variant(name);
    ASSERT_NE(v, nullptr) << "missing known-bad variant " << name;
    EXPECT_TRUE(v->is_known_bad()) << name;
  }
}

TEST(ReductionRegistry, NamesAreUniqueValidTestNames) {
  std::set<std::string_view> names;
  const std::regex camel("[A-Z][A-Za-z0-9]*");
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list) {
      EXPECT_TRUE(names.insert(v.name).second) << "duplicate name " << v.name;
      EXPECT_TRUE(std::regex_match(std::string(v.name), camel)) << v.name;
      EXPECT_FALSE(v.technique.empty()) << v.name;
      EXPECT_TRUE(v.has_pass() || v.reduce != nullptr) << v.name << " can neither run a pass nor reduce";
    }
}

TEST(ReductionCases, SweepCoversTheIssueSizesAndBlocks) {
  const std::vector<std::size_t> sizes = testing::swept_sizes();
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{32}, std::size_t{33},
                              std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{127}, std::size_t{1000},
                              std::size_t{1023}, std::size_t{1024}, std::size_t{1025}, std::size_t{4097}, std::size_t{65537},
                              std::size_t{1} << 20, (std::size_t{1} << 20) + 3, std::size_t{1} << 24,
                              (std::size_t{1} << 26) + 1})
    EXPECT_TRUE(std::count(sizes.begin(), sizes.end(), n)) << n;
  EXPECT_GE(sizes.size(), 22u) << "three seeded random sizes expected besides the fixed ones";
  EXPECT_EQ(named("SequentialAddressing").swept_blocks(), (std::vector<int>{32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(named("CubDeviceReduce").swept_blocks(), std::vector<int>{0});
  // One case per (variant, size, config, input), each name unique across every instantiation that
  // shares a suite; at every (variant, size): integer and real input at every swept block.
  std::set<std::string> names;
  std::map<std::string, std::set<std::string>> inputs_at;  // "<variant>N<n>B<block>" -> inputs
  for (const testing::reduction_case& c : testing::sweep(correct_variants())) {
    EXPECT_TRUE(names.insert(c.name()).second) << c.name();
    if (c.config.grid == 0)
      inputs_at[std::string(c.v->name) + 'N' + std::to_string(c.n) + 'B' + std::to_string(c.config.block)].insert(
          testing::name_of(c.input));
  }
  for (const variant& v : correct_variants())
    for (const std::size_t n : sizes)
      for (const int block : v.swept_blocks()) {
        const std::string at = std::string(v.name) + 'N' + std::to_string(n) + 'B' + std::to_string(block);
        EXPECT_EQ(inputs_at[at], (std::set<std::string>{"Integer", "Real"})) << at << ": integer and real input at every config";
      }
  for (const auto& c : testing::edge_input_cases(correct_variants())) EXPECT_TRUE(names.insert(c.name()).second) << c.name();
  for (const auto& c : testing::report_grid_cases(correct_variants())) EXPECT_TRUE(names.insert(c.name()).second) << c.name();
}

// The integer inputs are exact and zero-free at every size: dropping, duplicating or double-counting
// any one element changes the exact total. Before issue 6 they were 1/3 zeros at 2^24 and 77.5%
// zeros at 2^26 + 1 (a kernel dropping the last element escaped with probability 1/3 and 3/4).
TEST(ReductionCases, IntegerInputsAreExactAndZeroFreeAtEverySweptSize) {
  for (const std::size_t n : testing::swept_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const testing::reduction_input input = testing::make_input(testing::input_kind::integer, n, 99);
    ASSERT_TRUE(input.exact()) << "partial-sum bound " << input.partial_sum_bound << " exceeds 2^24";
    std::size_t zeros = 0;
    for (const float x : input.values) {
      zeros += x == 0.0f;
      ASSERT_EQ(x, std::nearbyint(x));
    }
    EXPECT_EQ(zeros, 0u);
    // The check itself: a total missing any one element is rejected (tolerance 0 and x != 0).
    const double total = reference::reduce_sum(input.values);
    for (const std::size_t dropped : {std::size_t{0}, n / 2, n - 1}) {
      const double missing_one = total - input.values[dropped];
      EXPECT_GT(std::fabs(missing_one - total), testing::tolerance_for(1000, reference::reduce_abs_sum(input.values), input))
          << "dropping element " << dropped << " would pass";
    }
  }
  // The 2^31-element case (reduction_huge_test.cpp) is exact by the same random-sign argument.
  const std::size_t huge = (std::size_t{1} << 31) + 17;
  EXPECT_LT(random_sign_partial_sum_bound(huge, 1.0, 4.0 * static_cast<double>(huge)), 6e5);
}

// Every case of the sweep runs an exact input beside the real one, at every size: past ~2^20 the
// real-input total check's bound gamma(d)·sum|x| exceeds one element, and at 2^26 + 1 it exceeds the
// spread of the answer itself (documented in reduction_checks.hpp), so it alone could not see a
// dropped element there.
TEST(ReductionCases, EverySizeCaseHasAnExactInput) {
  std::set<std::string> with_exact, all;
  for (const testing::reduction_case& c : testing::sweep(correct_variants())) {
    const std::string at = std::string(c.v->name) + 'N' + std::to_string(c.n);
    all.insert(at);
    if (c.input == testing::input_kind::integer) with_exact.insert(at);
  }
  EXPECT_EQ(with_exact, all);
  // Where the real-input total check stops resolving one element (|x| < 1): the bound at K3,
  // block 256, grows past 1 between 2^20 and 2^24.
  const variant& k3 = named("SequentialAddressing");
  const auto real_bound = [&](std::size_t n) {
    const testing::reduction_input input = testing::make_input(testing::input_kind::real, n, 5);
    return testing::tolerance_for(plan_multipass(k3, n, {256, 0}, h100).summation_depth(), reference::reduce_abs_sum(input.values),
                                  input);
  };
  EXPECT_LT(real_bound(65537), 0.5);
  EXPECT_GT(real_bound(std::size_t{1} << 24), 1.0);
}

// Sweeps come from the variant's own rule, never from a fixed list a rule can miss.
TEST(ReductionCases, SweptBlocksFollowTheVariantsRule) {
  EXPECT_EQ(named("WarpShuffle").swept_blocks(), (std::vector<int>{32, 96, 224, 256, 992, 1024}))
      << "whole warps: non-powers of two must run";
  variant multiples_of_96 = named("WarpShuffle");
  multiples_of_96.pass.blocks = block_rule{96, 1024, false, 96};
  const std::vector<int> blocks = multiples_of_96.swept_blocks();
  EXPECT_EQ(blocks, (std::vector<int>{96, 288, 672, 768, 960}));
  for (const int block : blocks) EXPECT_TRUE(validate_pass(multiples_of_96, 5000, {block, 0}, h100)) << block;
  for (const variant& v : correct_variants())
    for (const std::size_t n : testing::swept_sizes()) EXPECT_FALSE(testing::swept_configs(v, n).empty()) << v.name << ' ' << n;
  // Grid-stride variants also run explicit small grids, so threads loop many times.
  const std::vector<reduce_config> k7 = testing::swept_configs(named("GridStrideUnroll"), 4097);
  EXPECT_TRUE(std::count_if(k7.begin(), k7.end(), [](const reduce_config& c) { return c.grid == 1; }));
}

// Known-bad rows face the very sweep a correct variant faces.
TEST(ReductionCases, KnownBadRowsFaceTheCorrectVariantsSweep) {
  const variant& bad = named("SequentialTidLeS");
  const variant& good = named("SequentialAddressing");
  const auto bad_cases = testing::every_case_of(bad), good_cases = testing::every_case_of(good);
  ASSERT_EQ(bad_cases.size(), good_cases.size());
  for (std::size_t i = 0; i < bad_cases.size(); ++i) {
    EXPECT_EQ(bad_cases[i].n, good_cases[i].n);
    EXPECT_EQ(bad_cases[i].input, good_cases[i].input);
    EXPECT_EQ(bad_cases[i].config.block, good_cases[i].config.block);
    EXPECT_EQ(bad_cases[i].config.grid, good_cases[i].config.grid);
  }
}

// The printed parameter tells tools/runner the case's unit (its variant) and cost; the name is the
// case's own, and consecutive cases share (size, input) so the process reuses prepared inputs.
TEST(ReductionCases, ParametersPrintTheirUnitAndCases) {
  const auto cases = testing::sweep(correct_variants());
  ASSERT_FALSE(cases.empty());
  const std::string printed = ::testing::PrintToString(cases.front());
  EXPECT_EQ(printed.rfind("unit:" + std::string(cases.front().v->name) + " cost:", 0), 0u) << printed;
  EXPECT_EQ(cases.front().name().rfind(std::string(cases.front().v->name) + "N1B", 0), 0u) << cases.front().name();
  std::size_t input_changes = 0;
  for (std::size_t i = 1; i < cases.size(); ++i)
    input_changes += cases[i].n != cases[i - 1].n || cases[i].input != cases[i - 1].input;
  EXPECT_LT(input_changes * 4, cases.size()) << "cases are ordered so that several share each prepared input";
}

TEST(ReductionRegistry, RowsOnlyASanitizerSeesNameTheirTool) {
  std::set<std::string> tools;
  for (const variant& v : known_bad_variants())
    if (v.detection != caught_by::value_checks) tools.insert(name_of(v.detection));
  // tests/CMakeLists.txt registers a sanitizer gate for each of these tools.
  for (const std::string& tool : tools) EXPECT_TRUE(tool == "racecheck" || tool == "memcheck" || tool == "initcheck") << tool;
  EXPECT_TRUE(tools.count("memcheck")) << "a row only memcheck on exact-size buffers can catch";
  EXPECT_TRUE(tools.count("initcheck")) << "a row only initcheck on unpoisoned buffers can catch";
}

}  // namespace
}  // namespace kc::reduction
