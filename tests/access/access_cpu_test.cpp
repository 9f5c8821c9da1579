// CPU tests of the access family (no GPU): the registry, the launchers' validation messages, the
// scenario generators, the index arithmetic (the seed's overflow, the corrected mappings, the
// clamped groups, the hashed twins), the statistics behind the oracles, and the references.
#include "fixtures/generators.hpp"
#include "fixtures/registry_rows.hpp"
#include "reference/access_reference.hpp"
#include "tests/access/access_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>
#include <set>

namespace kc::access::testing {
namespace {

const device_limits h100 = device_limits::hopper_h100();

// ---- registry ----

TEST(AccessRegistry, RowsAreNamedAndComplete) {
  expect_registry_rows_complete(correct_variants(), known_bad_variants(), find_variant, "003");
  std::set<std::string_view> ids;
  for (const variant& v : correct_variants()) ids.insert(v.catalog_id);
  EXPECT_EQ(ids, (std::set<std::string_view>{"AC1", "AC2", "AC3", "AC2r", "AC3r", "DV1", "DV2", "OC"}));
}

TEST(AccessRegistry, EveryKnownBadRowFacesASweep) {
  for (const variant& v : known_bad_variants()) EXPECT_FALSE(every_case_of(v).empty()) << v.name;
}

// ---- validation ----

std::string refusal(std::string_view name, std::size_t n, access_config config) {
  const launch_status status = validate(*find_variant(name), n, config, h100);
  EXPECT_EQ(status.what(), launch_status::kind::refused) << name << " n=" << n << " " << config.describe();
  return status.message();
}

TEST(AccessValidation, AcceptsTheSweptConfigurations) {
  for (const variant& v : correct_variants())
    for (const access_case& c : every_case_of(v)) {
      const launch_status status = validate(v, c.n, c.config, h100);
      EXPECT_TRUE(status.is_ok()) << c.name() << ": " << status.message();
    }
}

TEST(AccessValidation, RefusesWithActionableMessages) {
  EXPECT_NE(refusal("FullCoalesced", 0, {}).find("n = 0"), std::string::npos);
  EXPECT_NE(refusal("FullCoalesced", std::size_t{1} << 32, {}).find("exceeds 2^32 - 1"), std::string::npos);
  EXPECT_NE(refusal("WarpDivergence", 100, {0, 1}).find("has no threads"), std::string::npos);
  EXPECT_NE(refusal("WarpDivergence", 100, {2048, 1}).find("exceeds this device's 1024 threads per block"), std::string::npos);
  const std::string warps = refusal("SemiCoalesced", 1000, {100, 1});
  EXPECT_NE(warps.find("not a multiple of 32"), std::string::npos) << warps;
  EXPECT_NE(warps.find("try 96 or 128"), std::string::npos) << warps;
  EXPECT_NE(refusal("NonCoalesced", 1000, {256, 0}).find("at least once"), std::string::npos);
  EXPECT_NE(refusal("NonCoalescedAsWritten", 1, {32, 1}).find("truncates to 0"), std::string::npos);
  // KERNELS.md §6: AC3 picks one of floor(n / 512) whole groups; below 512 there is none.
  for (const char* grouped : {"SemiCoalesced", "SemiCoalescedHashed", "SemiCoalescedAsWritten"})
    EXPECT_NE(refusal(grouped, 511, {32, 1}).find("n must be at least 512"), std::string::npos) << grouped;
  EXPECT_TRUE(validate(*find_variant("SemiCoalesced"), 512, {32, 1}, h100).is_ok());
  EXPECT_NE(refusal("SemiCoalescedAsWritten", 1000, {32, 1}).find("group_count = 1"), std::string::npos);
  EXPECT_NE(refusal("VectorAddGridRoundsDown", 31, {32, 1}).find("0 blocks"), std::string::npos);
  EXPECT_TRUE(validate(*find_variant("SemiCoalescedAsWritten"), 1024, {32, 1}, h100).is_ok());
  // Any block works where the pattern is not per warp.
  EXPECT_TRUE(validate(*find_variant("NonCoalesced"), 1000, {1000, 1}, h100).is_ok());
  EXPECT_TRUE(validate(*find_variant("VectorAdd"), 1, {1, 1}, h100).is_ok());
}

TEST(AccessValidation, RefusesAGridPastTheDeviceLimit) {
  device_limits small = h100;
  small.max_grid_x = 10;
  EXPECT_NE(validate(*find_variant("FullCoalesced"), 1000, {32, 1}, small).message().find("use a larger block"),
            std::string::npos);
}

TEST(AccessLaunch, LaunchByNameRefusesUnknownAndKnownBadNames) {
  EXPECT_EQ(launch_by_name("NoSuchKernel", nullptr, nullptr, nullptr, 1, {}).what(), launch_status::kind::refused);
  EXPECT_EQ(launch_by_name("NonCoalescedAsWritten", nullptr, nullptr, nullptr, 1, {}).what(), launch_status::kind::refused);
}

// ---- scenarios ----

TEST(AccessScenarios, MatchTheSeedsTables) {
  for (const std::size_t n : {32u, 64u, 512u, 1024u}) EXPECT_EQ(scenario_s1_block(n), static_cast<int>(n));
  for (const std::size_t n : {2048u, 65536u}) EXPECT_EQ(scenario_s1_block(n), 1024);
  const std::pair<std::size_t, int> s2[] = {{32, 32},   {256, 32},   {512, 32},    {1024, 64},  {2048, 128},
                                            {4096, 256}, {8192, 512}, {16384, 1024}, {65536, 1024}};
  for (const auto& [n, block] : s2) EXPECT_EQ(scenario_s2_block(n), block) << "n = " << n;
  EXPECT_EQ(scenario_s2_block(1000), 64);  // between the seed's rows: as 1024
  EXPECT_EQ(scenario_s2_block(1), 32);
}

TEST(AccessCases, NamesAndUnits) {
  const variant& v = *find_variant("NonCoalesced");
  const access_case c{&v, 1000, {256, 100, 1}, input_kind::seed_data};
  EXPECT_EQ(c.name(), "NonCoalescedN1000B256R100SeedData");
  EXPECT_EQ(::testing::PrintToString(c).rfind("unit:NonCoalesced cost:", 0), 0u);
  const access_case s{find_variant("VectorAdd"), 1000, {64, 100, 1, scenario::s2}, input_kind::integer};
  EXPECT_EQ(s.name(), "VectorAddN1000S2B64R100Integer");
  std::set<std::string> names;
  for (const auto& list : {sweep(correct_variants()), repeat_cases(correct_variants()), scenario_sweep(correct_variants())})
    for (const access_case& k : list) EXPECT_TRUE(names.insert(k.name()).second) << "duplicate case " << k.name();
}

// ---- the seed's index formula, exactly ----

// The integer-data index oracle's set of sums (prepared_input::sorted_sums) is what sorting every sum
// and dropping repeats gives, on the table's path (whole numbers, a small range) and on the sort's
// (a fraction; whole numbers too far apart; whole numbers past 2^24, where a float skips integers).
TEST(AccessInputs, DistinctSortedSumsAreTheSortedSetOfSums) {
  const auto by_sorting = [](const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> sums(a.size());
    for (std::size_t j = 0; j < a.size(); ++j) sums[j] = a[j] + b[j];
    std::sort(sums.begin(), sums.end());
    sums.erase(std::unique(sums.begin(), sums.end()), sums.end());
    return sums;
  };
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> magnitude(1, 1000);
  std::vector<float> a(100003), b(100003);
  for (std::size_t j = 0; j < a.size(); ++j) {
    a[j] = static_cast<float>((gen() % 2 == 0 ? 1 : -1) * magnitude(gen));
    b[j] = static_cast<float>((gen() % 2 == 0 ? 1 : -1) * magnitude(gen));
  }
  EXPECT_EQ(distinct_sorted_sums(a, b), by_sorting(a, b)) << "integer inputs in ±[1, 1000]";
  EXPECT_GT(by_sorting(a, b).size(), 3000u);  // most of the 4,001 possible sums, so the table is exercised
  std::vector<float> fraction = a;
  fraction[500] = 0.5f;
  EXPECT_EQ(distinct_sorted_sums(fraction, b), by_sorting(fraction, b)) << "one fractional sum";
  std::vector<float> far = a;
  far[17] = 0x1p21f;
  EXPECT_EQ(distinct_sorted_sums(far, b), by_sorting(far, b)) << "a range wider than 2^20";
  std::vector<float> big(a.size()), small(a.size(), 0.0f);
  for (std::size_t j = 0; j < big.size(); ++j) big[j] = 0x1p25f + 2.0f * static_cast<float>(j % 1000);
  EXPECT_EQ(distinct_sorted_sums(big, small), by_sorting(big, small)) << "whole numbers past 2^24";
  EXPECT_TRUE(distinct_sorted_sums({}, {}).empty());
  // The table's edges: a range of exactly 2^20, and whole sums up to ±2^24 (taken), one past (sorted).
  const std::vector<float> edges_a{-0x1p19f, 0x1p19f, 3.0f}, edges_b{0.0f, 0.0f, 4.0f};
  EXPECT_EQ(distinct_sorted_sums(edges_a, edges_b), by_sorting(edges_a, edges_b)) << "a range of 2^20";
  const std::vector<float> top_a{0x1p24f, 0x1p24f - 8.0f, 0x1p24f - 1.0f}, zeros(3, 0.0f);
  EXPECT_EQ(distinct_sorted_sums(top_a, zeros), by_sorting(top_a, zeros)) << "whole sums up to 2^24";
  const std::vector<float> past_a{0x1p24f + 2.0f, 0x1p24f, 0x1p24f + 4.0f};
  EXPECT_EQ(distinct_sorted_sums(past_a, zeros), by_sorting(past_a, zeros)) << "a sum past 2^24";
}

TEST(AccessIndexFormula, SeedFormulaReachesNExactlyWhenNIsNotAPowerOfTwo) {
  for (std::uint64_t n = 2; n <= 5000; ++n) {
    const std::uint32_t np = seed_partition(n);
    const std::uint64_t s = (std::uint64_t{1} << 32) % n;
    const std::uint32_t largest = seed_formula_index(0xFFFFFFFFu, np);
    if (s == 0) {
      EXPECT_EQ(largest, n - 1) << "n = " << n;
    } else {
      EXPECT_EQ(largest, n + (s - 1) / np) << "n = " << n;
      // The overflowing draws are exactly the s largest values of r.
      EXPECT_GE(seed_formula_index(static_cast<std::uint32_t>(np * n), np), n) << "n = " << n;
      EXPECT_LT(seed_formula_index(static_cast<std::uint32_t>(np * n - 1), np), n) << "n = " << n;
    }
  }
}

TEST(AccessIndexFormula, SeedFormulaAtTheSuitesSizes) {
  // n = 1,000,003: NP = 4294, 2^32 mod n = 954,414 draws of 2^32 overflow (2.2e-4), up to index 1,000,225.
  EXPECT_EQ(seed_partition(1000003), 4294u);
  EXPECT_EQ((std::uint64_t{1} << 32) % 1000003, 954414u);
  EXPECT_EQ(seed_formula_index(0xFFFFFFFFu, 4294), 1000225u);
  // n = 65537: one draw in 2^32 (r = 2^32 - 1) gives index n exactly.
  EXPECT_EQ(seed_formula_index(0xFFFFFFFFu, seed_partition(65537)), 65537u);
  EXPECT_EQ(seed_formula_index(0xFFFFFFFEu, seed_partition(65537)), 65536u);
  // The seed's own sizes are powers of two: in range there.
  EXPECT_EQ(seed_formula_index(0xFFFFFFFFu, seed_partition(32768)), 32767u);
  EXPECT_EQ(seed_formula_index(0xFFFFFFFFu, seed_partition(4194304)), 4194303u);
  EXPECT_EQ(seed_partition(1), 0u);  // 2^32 truncated in the seed's unsigned int
}

TEST(AccessIndexFormula, SeedGroupFormulaOverflowsExactlyWhenTheGroupCountIsNotAPowerOfTwo) {
  const std::uint32_t np_size = seed_partition(group_floats);
  EXPECT_EQ(np_size, 1u << 23);  // the lane offset r / 2^23 is always < 512
  EXPECT_EQ(seed_formula_index(0xFFFFFFFFu, np_size), 511u);
  // n = 1535: 2 whole groups (a power of two): GN <= 1, the partial group [1024, 1535) never chosen.
  EXPECT_EQ(seed_formula_index(0xFFFFFFFFu, seed_partition(1535 / group_floats)), 1u);
  // n = 1700: 3 whole groups: GN reaches 3 for the 2^32 mod 3 = 1 largest r, reading [1536, 2048) past n.
  EXPECT_EQ(seed_formula_index(0xFFFFFFFFu, seed_partition(1700 / group_floats)), 3u);
  EXPECT_EQ(seed_formula_index(0xFFFFFFFEu, seed_partition(1700 / group_floats)), 2u);
  // The overflow-seed size: 641 whole groups, 641 | 2^32 + 1, so 640 values of r overflow — the most
  // of any group count below 6.7 million — and the first of them is floor(2^32 / 641) · 641.
  EXPECT_EQ(group_count(overflow_seed_size), 641u);
  EXPECT_EQ((std::uint64_t{1} << 32) % 641, 640u);
  const std::uint32_t np_641 = seed_partition(641);
  const std::uint32_t first_overflow = np_641 * 641u;
  EXPECT_EQ(seed_formula_index(first_overflow, np_641), 641u);
  EXPECT_EQ(seed_formula_index(first_overflow - 1, np_641), 640u);
  EXPECT_EQ(0xFFFFFFFFu - first_overflow + 1, 640u);
  // Multiply-high never reaches the group count.
  EXPECT_EQ(scale_to(0xFFFFFFFFu, 641), 640u);
}

TEST(AccessIndexFormula, MultiplyHighIsAlwaysInRangeAndNearUniform) {
  for (const std::uint32_t n : {1u, 2u, 3u, 31u, 33u, 1000u, 65537u, 1000003u, 4194304u, 0xFFFFFFFFu}) {
    EXPECT_EQ(scale_to(0, n), 0u);
    EXPECT_EQ(scale_to(0xFFFFFFFFu, n), n - 1) << n;
  }
  // Each index gets floor or ceil of 2^32 / n of the values of r: count them at n = 3 on a sub-lattice.
  std::array<std::uint64_t, 3> counts{};
  for (std::uint64_t r = 0; r < (std::uint64_t{1} << 32); r += 65536) ++counts[scale_to(static_cast<std::uint32_t>(r), 3)];
  for (const auto count : counts) EXPECT_NEAR(static_cast<double>(count), 65536.0 / 3, 1.0);
}

TEST(AccessGroups, WholeGroupsTileTheArrayUpToTheLastPartialGroup) {
  // KERNELS.md §6: floor(n / 512) groups of 512, back to back from 0; fewer than 512 elements are left.
  for (const std::uint32_t n : {512u, 513u, 1000u, 1535u, 1536u, 65537u, 328193u, 1000003u, 4194304u}) {
    const std::uint32_t groups = group_count(n);
    EXPECT_EQ(groups, n / 512) << n;
    EXPECT_EQ(group_extent(n), 512u);
    for (std::uint32_t g = 0; g < groups; ++g) ASSERT_EQ(group_start(g, n), g * 512u);
    EXPECT_EQ(whole_groups_end(n), groups * 512u);
    EXPECT_LE(whole_groups_end(n), n);
    EXPECT_LT(n - whole_groups_end(n), 512u);
  }
  EXPECT_EQ(group_count(511), 0u);  // refused by validate()
}

TEST(AccessHashedTwins, IndicesInRangeAndOneGroupPerWarp) {
  const std::uint64_t seed = 12345;
  for (const std::uint32_t n : {1u, 33u, 1000u}) for (std::uint64_t t = 0; t < n; ++t) ASSERT_LT(hashed_random_index(seed, t, 7, n), n);
  for (const std::uint32_t n : {512u, 1000u, 1535u, 65537u}) {
    for (std::uint64_t t = 0; t < n; ++t) ASSERT_LT(hashed_group_index(seed, t, 7, n), whole_groups_end(n));
    for (std::uint64_t first = 0; first < n; first += 32) {
      const std::uint32_t start = group_start(hashed_group_of_warp(seed, first / 32, n), n);
      for (std::uint64_t t = first; t < std::min<std::uint64_t>(n, first + 32); ++t) {
        const std::uint32_t j = hashed_group_index(seed, t, 3, n);
        ASSERT_GE(j, start);
        ASSERT_LT(j, start + group_extent(n));
      }
    }
  }
}

TEST(AccessHashedTwins, RandomIndexPassesTheSpreadTest) {
  // The same chi-square the GPU oracle applies, on the hash itself (fixed seed: deterministic).
  const std::uint32_t n = 1000003;
  std::array<std::size_t, spread_bins> counts{};
  for (std::uint64_t t = 0; t < n; ++t) ++counts[static_cast<std::size_t>(spread_bin(hashed_random_index(7, t, 99, n), n))];
  const auto p = bin_probabilities(false, n);
  EXPECT_LE(chi_square_statistic(counts, p), spread_critical_value);
  EXPECT_GE(chi_square_statistic(counts, p), spread_too_regular_value);
}

TEST(AccessStatistics, AnIndexMapThatLostItsRandomnessIsTooEven) {
  // j = tid fills 16 equal bins exactly: X² ~ 0, below the lower critical value.
  const std::uint32_t n = 1000003;
  std::array<std::size_t, spread_bins> counts{};
  for (std::uint32_t t = 0; t < n; ++t) ++counts[static_cast<std::size_t>(spread_bin(t, n))];
  EXPECT_LT(chi_square_statistic(counts, bin_probabilities(false, n)), spread_too_regular_value);
}

// ---- the statistics ----

TEST(AccessStatistics, ChiSquareTailMatchesClosedForms) {
  for (const double x : {0.5, 2.0, 10.0, 40.0}) EXPECT_NEAR(chi_square_tail(x, 2), std::exp(-x / 2), 1e-12 * (1 + std::exp(-x / 2)));
  // dof 4: Q = e^{-x/2} (1 + x/2).
  EXPECT_NEAR(chi_square_tail(9.0, 4), std::exp(-4.5) * 5.5, 1e-12);
  // The stated critical value: false-alarm probability 1e-6 for 15 degrees of freedom.
  const double alarm = chi_square_tail(spread_critical_value, spread_bins - 1);
  EXPECT_LE(alarm, 1e-6);
  EXPECT_GE(alarm, 0.9e-6);
  // And the lower one: P(X² < 1.216) = 1 − Q(1.216) ~ 1e-6.
  const double too_regular = 1.0 - chi_square_tail(spread_too_regular_value, spread_bins - 1);
  EXPECT_LE(too_regular, 1.1e-6);
  EXPECT_GE(too_regular, 0.9e-6);
}

TEST(AccessStatistics, BinProbabilitiesSumToOneAndLeaveOutThePartialGroup) {
  for (const bool grouped : {false, true})
    for (const std::uint32_t n : {512u, 1000u, 1535u, 65537u, 4194304u}) {
      const auto p = bin_probabilities(grouped, n);
      double total = 0.0;
      for (const double x : p) total += x;
      EXPECT_NEAR(total, 1.0, 1e-12) << n;
    }
  const auto uniform = bin_probabilities(false, 4096);
  EXPECT_DOUBLE_EQ(uniform[0], 1.0 / 16);
  // 1535: whole groups [0, 1024); bins from 1056 on (bin 11: [1056, 1152)) hold no index at all.
  const auto p = bin_probabilities(true, 1535);
  EXPECT_GT(p[0], 0.0);
  EXPECT_GT(p[10], 0.0);
  for (int b = 11; b < spread_bins; ++b) EXPECT_EQ(p[static_cast<std::size_t>(b)], 0.0) << b;
}

TEST(AccessStatistics, ChiSquareRejectsAMissingTail) {
  // A map confined to [0, 1024) of [0, 1535), against the uniform spread: X² far above the critical value.
  std::array<std::size_t, spread_bins> counts{};
  for (std::uint64_t t = 0; t < 1535; ++t) {
    const std::uint32_t gn = scale_to(draw32(1, t / 32, 0), 2);
    ++counts[static_cast<std::size_t>(spread_bin(gn * 512 + scale_to(draw32(2, t, 0), 512), 1535))];
  }
  EXPECT_GT(chi_square_statistic(counts, bin_probabilities(false, 1535)), spread_critical_value);
}

TEST(AccessCases, OverflowSeedCasesRunEveryCuRandGroupVariantAtTheOverflowSize) {
  const std::vector<access_case> cases = overflow_seed_cases(correct_variants());
  ASSERT_EQ(cases.size(), 1u);  // SemiCoalesced: the hashed twin has no cuRAND seed to choose
  EXPECT_EQ(cases[0].name(), "SemiCoalescedN328193B256R100SeedDataOverflowSeed");
  EXPECT_TRUE(cases[0].overflow_seed);
  // The seed's AC3 as written meets it in its sweep, after the sizes it runs correctly at.
  const std::vector<access_case> sweep_of_row = every_case_of(*find_variant("SemiCoalescedAsWritten"));
  EXPECT_TRUE(std::is_sorted(sweep_of_row.begin(), sweep_of_row.end(), [](const access_case& a, const access_case& b) { return a.n < b.n; }));
  EXPECT_EQ(std::count_if(sweep_of_row.begin(), sweep_of_row.end(), [](const access_case& c) { return c.overflow_seed; }), 1);
}

// ---- references ----

TEST(AccessReference, OperationsAreSingleIeeeOperations) {
  const std::vector<float> a{1, 2, 3, 4, 5, 6, 7, 8}, b{3, 3, 3, 3, 3, 3, 3, 3};
  std::vector<float> c(8);
  reference::access_branch_by_thread(a, b, c);
  EXPECT_EQ(c[0], 4.0f);
  EXPECT_EQ(c[1], -1.0f);
  EXPECT_EQ(c[2], 9.0f);
  EXPECT_EQ(c[3], 4.0f / 3.0f);
  EXPECT_EQ(c[7], 8.0f / 3.0f);
  reference::access_branch_by_warp(a, b, c);  // all in warp 0: additions
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(c[i], a[i] + b[i]);
}

TEST(AccessReference, BranchByWarpSwitchesEvery32Threads) {
  const std::size_t n = 200;
  std::vector<float> a(n, 6.0f), b(n, 2.0f), c(n);
  reference::access_branch_by_warp(a, b, c);
  EXPECT_EQ(c[31], 8.0f);
  EXPECT_EQ(c[32], 4.0f);
  EXPECT_EQ(c[64], 12.0f);
  EXPECT_EQ(c[96], 3.0f);
  EXPECT_EQ(c[128], 8.0f);
}

TEST(AccessReference, CoalescedAndHashedTwinsGatherTheLastRepeatsIndex) {
  const std::size_t n = 1535;
  const access_input in = make_input(input_kind::seed_data, n, 0);
  std::vector<float> c(n);
  reference::access_coalesced(in.a, in.b, c);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], static_cast<float>(2 * i + 3));
  reference::access_hashed_random(in.a, in.b, c, 99, 100);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], static_cast<float>(2 * hashed_random_index(99, i, 99, n) + 3));
  reference::access_hashed_group(in.a, in.b, c, 99, 1);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], static_cast<float>(2 * hashed_group_index(99, i, 0, n) + 3));
}

TEST(AccessInputs, SeedDataIsExactUpToItsLimitAndIntegerDataHasNoZeros) {
  const access_input in = make_input(input_kind::integer, 4096, 5);
  for (std::size_t i = 0; i < in.a.size(); ++i) {
    ASSERT_NE(in.a[i], 0.0f);
    ASSERT_NE(in.b[i], 0.0f);
  }
  // The largest seed-data sum of the sweep (n = 2^22) and at the limit 2^23 - 1: 2·idx + 3 exact; one past it is not.
  for (const std::size_t n : {std::size_t{1} << 22, seed_data_limit}) {
    const float idx = static_cast<float>(n - 1);
    EXPECT_EQ(static_cast<double>((idx + 1.0f) + (idx + 2.0f)), 2.0 * (n - 1) + 3.0);
  }
  const float past = static_cast<float>(seed_data_limit);  // idx = 2^23 - 1: 2^24 + 1 is no float
  EXPECT_NE(static_cast<double>((past + 1.0f) + (past + 2.0f)), 2.0 * seed_data_limit + 3.0);
}

}  // namespace
}  // namespace kc::access::testing
