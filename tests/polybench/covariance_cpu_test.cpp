// CPU tests of the covariance family (no GPU): the registry rows, the launchers' validation messages,
// the cases (names, units, costs, both FLOAT_N settings everywhere), the inputs, the reference against
// hand-computed cases, and the error bound — that it admits a double-precision pipeline evaluated in
// any order, that it is tight, and that it rejects a broken centring PolyBench's own check passes.
#include "fixtures/error_bounds.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/registry_rows.hpp"
#include "reference/polybench/covariance_reference.hpp"
#include "reference/polybench/double_loops.hpp"
#include "reference/polybench/percent_diff.hpp"
#include "tests/polybench/covariance_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>

namespace kc::polybench::covariance::testing {
namespace {

namespace ref = ::kc::reference::polybench;
const device_limits h100 = device_limits::hopper_h100();

// ---- registry ----

TEST(CovarianceRegistry, RowsAreNamedAndComplete) {
  expect_registry_rows_complete(correct_variants(), known_bad_variants(), find_variant, "004", "Covariance");
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list) {
      EXPECT_EQ(v.catalog_id, "COVAR") << v.name;
      EXPECT_NE(v.configs, nullptr) << v.name;
    }
  EXPECT_EQ(row_names(correct_variants()), (std::set<std::string_view>{"CovarianceMultiKernel", "CovarianceCublas"}));
  const std::set<std::string_view> bad_names = row_names(known_bad_variants());
  for (const variant& v : known_bad_variants())
    EXPECT_EQ(v.detection, caught_by::value_checks) << v.name << ": no covariance row needs a sanitizer";
  for (const std::string_view required : {"CovarianceFusedAsWritten", "CovarianceCentringQuarterGrid", "CovarianceDividesByNMinus1"})
    EXPECT_TRUE(bad_names.count(required)) << required << " (issue 10 §4) is missing";
}

TEST(CovarianceRegistry, EveryRowHasConfigurationsAtEverySizeAndFacesTheCorrectSweep) {
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list)
      for (const dims& d : swept_sizes()) EXPECT_FALSE(v.configs(d).empty()) << v.name << " at " << d.describe();
  // A known-bad row walks every size, FLOAT_N and input a correct row does.
  const std::vector<covariance_case> correct = every_case_of(*find_variant("CovarianceMultiKernel"));
  for (const variant& v : known_bad_variants()) {
    std::set<std::string> seen;
    for (const covariance_case& c : every_case_of(v))
      seen.insert("N" + std::to_string(c.d.n) + "M" + std::to_string(c.d.m) + name_of(c.float_n) + name_of(c.input));
    for (const covariance_case& c : correct)
      EXPECT_TRUE(seen.count("N" + std::to_string(c.d.n) + "M" + std::to_string(c.d.m) + name_of(c.float_n) + name_of(c.input)))
          << v.name << " skips " << c.name();
  }
}

TEST(CovarianceRegistry, KernelHandlesForTheTiledProductOnly) {
  const variant& tiled = *find_variant("CovarianceMultiKernel");
  for (const covariance_config& config : tiled_configs({33, 65})) {
    const kernel_handle h = kernel_handle_of(tiled, config);
    EXPECT_TRUE(static_cast<bool>(h)) << config.describe();
    EXPECT_EQ(h.block_threads, config.tile * config.tile);
    EXPECT_EQ(h.kernel, "tiled_product<" + std::to_string(config.tile) + ">");
  }
  EXPECT_FALSE(static_cast<bool>(kernel_handle_of(*find_variant("CovarianceCublas"), library_configs({33, 65}).front())));
  for (const variant& v : known_bad_variants()) EXPECT_FALSE(static_cast<bool>(kernel_handle_of(v, v.configs({33, 65}).front())));
}

// ---- validation ----

std::string refusal(std::string_view name, dims d, double float_n, covariance_config config,
                    const device_limits& limits = h100) {
  const launch_status status = validate(*find_variant(name), d, float_n, config, limits);
  EXPECT_EQ(status.what(), launch_status::kind::refused) << name << " " << d.describe() << " " << config.describe();
  return status.message();
}

TEST(CovarianceValidation, AcceptsEverySweptCaseOfTheCorrectRows) {
  for (const variant& v : correct_variants())
    for (const covariance_case& c : every_case_of(v)) {
      const launch_status status = validate(v, c.d, c.float_n_value(), c.config, h100);
      EXPECT_TRUE(status.is_ok()) << c.name() << ": " << status.message();
    }
}

TEST(CovarianceValidation, RefusesWithActionableMessages) {
  const covariance_config tiled{16, 256, 32, 8}, library{0, 256, 32, 8};
  EXPECT_NE(refusal("CovarianceMultiKernel", {0, 5}, 1.0, tiled).find("n must be at least 1"), std::string::npos);
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 0}, 5.0, tiled).find("m must be at least 1"), std::string::npos);
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 5}, 0.0, tiled).find("finite and non-zero"), std::string::npos);
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 5}, std::numeric_limits<double>::quiet_NaN(), tiled).find("FLOAT_N"),
            std::string::npos);
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 5}, 5.0, {12, 256, 32, 8}).find("tiles 8, 16 and 32"), std::string::npos);
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 5}, 5.0, {0, 256, 32, 8}).find("tile 0 is not built"), std::string::npos);
  EXPECT_NE(refusal("CovarianceCublas", {5, 5}, 5.0, tiled).find("tile must be 0"), std::string::npos);
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 5}, 5.0, {16, 0, 32, 8}).find("mean block 0 has no threads"), std::string::npos);
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 5}, 5.0, {16, 2048, 32, 8}).find("exceeds this device's 1024"), std::string::npos);
  const std::string centring = refusal("CovarianceCublas", {5, 5}, 5.0, {0, 256, 64, 32});
  EXPECT_NE(centring.find("centring block 64x32 has 2048 threads"), std::string::npos) << centring;
  EXPECT_NE(centring.find("use 32x8"), std::string::npos) << centring;
  EXPECT_NE(refusal("CovarianceMultiKernel", {5, 5}, 5.0, {16, 256, 0, 8}).find("has no threads"), std::string::npos);
  EXPECT_NE(refusal("CovarianceFusedAsWritten", {5, 5}, 5.0, {8, 0, 0, 0}).find("BLOCK_SIZE 16 only"), std::string::npos);
  EXPECT_NE(refusal("CovarianceDividesByNMinus1", {1, 5}, 1.0, tiled).find("at least 2 observations"), std::string::npos);
  EXPECT_TRUE(validate(*find_variant("CovarianceDividesByNMinus1"), {2, 5}, 2.0, tiled, h100).is_ok());
  EXPECT_TRUE(validate(*find_variant("CovarianceFusedAsWritten"), {5, 5}, 5.0, {16, 0, 0, 0}, h100).is_ok());
  // Every message names the row and the catalog id.
  EXPECT_EQ(refusal("CovarianceCublas", {0, 5}, 1.0, library).rfind("CovarianceCublas (COVAR): ", 0), 0u);
}

TEST(CovarianceValidation, RefusesGridsPastTheDeviceLimits) {
  device_limits small = h100;
  small.max_grid_yz = 10;
  const std::string rows = refusal("CovarianceMultiKernel", {1000, 5}, 1000.0, {16, 256, 32, 8}, small);
  EXPECT_NE(rows.find("use a taller centring block"), std::string::npos) << rows;
  const std::string product = refusal("CovarianceMultiKernel", {5, 1000}, 5.0, {8, 256, 32, 64}, small);
  EXPECT_NE(product.find("use a larger tile"), std::string::npos) << product;
  const std::string mirror = refusal("CovarianceCublas", {5, 1000}, 5.0, {0, 256, 32, 8}, small);
  EXPECT_NE(mirror.find("mirror kernel"), std::string::npos) << mirror;
}

TEST(CovarianceLaunch, LaunchByNameRefusesUnknownAndKnownBadNames) {
  EXPECT_EQ(launch_by_name("NoSuchKernel", nullptr, nullptr, nullptr, {1, 1}, 1.0, {}, {}).what(), launch_status::kind::refused);
  EXPECT_EQ(launch_by_name("CovarianceFusedAsWritten", nullptr, nullptr, nullptr, {1, 1}, 1.0, {}, {}).what(),
            launch_status::kind::refused);
}

// ---- cases ----

TEST(CovarianceCases, NamesUnitsAndCosts) {
  const variant& v = *find_variant("CovarianceMultiKernel");
  const covariance_case c{&v, {33, 65}, {16, 256, 32, 8}, float_n_setting::seed, input_kind::uniform};
  EXPECT_EQ(c.name(), "CovarianceMultiKernelN33M65T16B256C32x8FloatNSeedUniform");
  EXPECT_EQ(::testing::PrintToString(c).rfind("unit:CovarianceMultiKernel cost:", 0), 0u);
  const covariance_case lib{find_variant("CovarianceCublas"), {1024, 1024}, {0, 256, 32, 8}, float_n_setting::rows,
                            input_kind::polybench_init};
  EXPECT_EQ(lib.name(), "CovarianceCublasN1024M1024LibB256C32x8FloatNRowsPolyBenchInit");
  EXPECT_EQ(lib.unit(), "Large");  // every variant's seed-scale cases: their references computed once
  const covariance_case fused{find_variant("CovarianceFusedAsWritten"), {3, 3}, {16, 0, 0, 0}, float_n_setting::rows,
                              input_kind::uniform_offset};
  EXPECT_EQ(fused.name(), "CovarianceFusedAsWrittenN3M3T16FloatNRowsUniformOffset");
  EXPECT_DOUBLE_EQ(c.float_n_value(), 3214212.01);
  EXPECT_DOUBLE_EQ(lib.float_n_value(), 1024.0);

  // The quick preset (cost <= 2) keeps every size up to 4096 x 17 and leaves out the 128 MiB symmat
  // of 17 x 4096 and the seed's sizes; Large holds exactly the seed's 1024² and 2048².
  std::set<std::string> names;
  for (const covariance_case& k : sweep(correct_variants())) {
    EXPECT_TRUE(names.insert(k.name()).second) << "duplicate case " << k.name();
    const bool seed_scale = k.d.n >= 1024 && k.d.m >= 1024, wide = k.d.m == 4096;
    EXPECT_EQ(k.unit() == "Large", seed_scale) << k.name();
    EXPECT_EQ(k.cost() <= 2.0, !seed_scale && !wide) << k.name() << " cost " << k.cost();
  }
}

TEST(CovarianceCases, EveryCaseRunsWithBothFloatNSettings) {
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list) {
      std::set<std::string> seed, rows;
      for (const covariance_case& c : every_case_of(v)) {
        std::string key = c.name();
        const std::string tag = name_of(c.float_n);
        key.replace(key.find(tag), tag.size(), "");
        (c.float_n == float_n_setting::seed ? seed : rows).insert(key);
      }
      EXPECT_EQ(seed, rows) << v.name;
      EXPECT_FALSE(seed.empty()) << v.name;
    }
}

TEST(CovarianceCases, SweepHoldsTheIssuesSizesConfigurationsAndInputs) {
  std::set<std::pair<int, int>> sizes;
  for (const dims& d : swept_sizes()) sizes.insert({d.n, d.m});
  for (const std::pair<int, int>& required : {std::pair{1, 1}, {2, 2}, {3, 3}, {1, 1000}, {1000, 1}, {33, 65}, {65, 33},
                                             {97, 101}, {4096, 17}, {17, 4096}, {1024, 1024}, {2048, 2048}})
    EXPECT_TRUE(sizes.count(required)) << required.first << " x " << required.second;
  std::set<int> tiles;
  for (const covariance_config& c : tiled_configs({33, 65})) tiles.insert(c.tile);
  EXPECT_EQ(tiles, (std::set<int>{8, 16, 32}));
  EXPECT_EQ(library_configs({33, 65}).front().tile, 0);
  // PolyBench's init runs wherever it is not all zeros; the random inputs everywhere.
  for (const dims& d : swept_sizes()) {
    const std::vector<input_kind> inputs = inputs_at(d);
    EXPECT_EQ(std::count(inputs.begin(), inputs.end(), input_kind::polybench_init) == 1, d.n >= 2 && d.m >= 2) << d.describe();
    EXPECT_TRUE(std::count(inputs.begin(), inputs.end(), input_kind::uniform) == 1 &&
                std::count(inputs.begin(), inputs.end(), input_kind::uniform_offset) == 1);
  }
  // 264 conformance cases: 33 (size, input) pairs x 2 FLOAT_N x (3 tiled configurations + 1 library).
  EXPECT_EQ(sweep(correct_variants()).size(), 264u);
}

// ---- inputs ----

TEST(CovarianceInputs, NeverAllZerosSeededAndInRange) {
  for (const dims& d : swept_sizes()) {
    if (d.data_elements() > 100000) continue;  // the large ones draw the same way
    for (const input_kind kind : inputs_at(d)) {
      const std::vector<double> data = make_data(kind, d, data_seed(kind, d));
      EXPECT_TRUE(std::any_of(data.begin(), data.end(), [](double x) { return x != 0.0; })) << name_of(kind) << " " << d.describe();
      EXPECT_EQ(data, make_data(kind, d, data_seed(kind, d))) << "inputs must be reproducible from the seed";
      const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
      if (kind == input_kind::uniform) {
        EXPECT_TRUE(*lo >= -1.0 && *hi < 1.0);
      }
      if (kind == input_kind::uniform_offset) {
        EXPECT_TRUE(*lo >= 0.0 && *hi < 2.0);
      }
    }
  }
  // Random data is not symmetric where PolyBench's init is (i·j / m with n = m).
  const dims square{33, 33};
  const std::vector<double> init = make_data(input_kind::polybench_init, square, 1), random = make_data(input_kind::uniform, square, 1);
  EXPECT_DOUBLE_EQ(init[2 * 33 + 5], init[5 * 33 + 2]);
  EXPECT_NE(random[2 * 33 + 5], random[5 * 33 + 2]);
}

TEST(CovarianceReference, PolyBenchInitIsIJOverColumns) {
  std::vector<double> data(3 * 4);
  ref::covariance_polybench_init(data, 3, 4);
  EXPECT_EQ(data[2 * 4 + 3], 6.0 / 4.0);
  EXPECT_EQ(data[1 * 4 + 1], 0.25);
  EXPECT_EQ(data[0 * 4 + 3], 0.0);
  std::vector<double> one_row(5);
  ref::covariance_polybench_init(one_row, 1, 5);
  EXPECT_TRUE(std::all_of(one_row.begin(), one_row.end(), [](double x) { return x == 0.0; })) << "why n = 1 skips it";
}

// ---- the reference against hand-computed cases ----

// data (3 rows, 2 columns) = [1 2; 3 4; 5 9]: sums 9 and 15.
const std::vector<double> hand_data{1, 2, 3, 4, 5, 9};

TEST(CovarianceReference, HandComputedWithTheTrueMean) {
  // FLOAT_N = n = 3: mean (3, 5); d = [-2 -3; 0 -1; 2 4]; S00 = 8, S01 = 6 + 0 + 8 = 14, S11 = 9 + 1 + 16 = 26.
  const ref::covariance_result r = ref::covariance(hand_data, 3, 2, 3.0);
  EXPECT_EQ(r.mean, (std::vector<double>{3, 5}));
  EXPECT_EQ(r.symmat, (std::vector<double>{8, 14, 14, 26}));
  EXPECT_EQ(r.abs_data_sum, (std::vector<double>{9, 15}));
  EXPECT_EQ(r.abs_centred_sum, (std::vector<double>{4, 8}));
  EXPECT_EQ(r.abs_product_sum, (std::vector<double>{8, 14, 14, 26}));  // no term of mixed sign here
  // Mixed signs: |d0·d1| with d = [-2 -3; 0 -1; 2 4] are all positive; flip a column to make them differ.
  const ref::covariance_result flipped = ref::covariance(std::vector<double>{1, -2, 3, -4, 5, 0}, 3, 2, 3.0);
  // mean (3, -2); d = [-2 0; 0 -2; 2 2]; S01 = 0 + 0 + 4 = 4, P01 = 4; S11 = 0 + 4 + 4 = 8.
  EXPECT_EQ(flipped.symmat, (std::vector<double>{8, 4, 4, 8}));
  EXPECT_EQ(flipped.abs_product_sum[1], 4.0);
}

TEST(CovarianceReference, HandComputedWithTheSeedsFloatN) {
  // PolyBench's symmat expands to Σ x1·x2 + μ1·μ2·(n − 2·FLOAT_N), since Σ x_j = FLOAT_N·μ_j.
  const long double f = 3214212.01;
  const long double mu0 = 9.0L / f, mu1 = 15.0L / f;
  const ref::covariance_result r = ref::covariance(hand_data, 3, 2, 3214212.01);
  EXPECT_EQ(r.mean[0], static_cast<double>(mu0));
  EXPECT_EQ(r.mean[1], static_cast<double>(mu1));
  const long double s00 = 35.0L + mu0 * mu0 * (3.0L - 2.0L * f), s01 = 59.0L + mu0 * mu1 * (3.0L - 2.0L * f),
                    s11 = 101.0L + mu1 * mu1 * (3.0L - 2.0L * f);
  EXPECT_NEAR(r.symmat[0], static_cast<double>(s00), 1e-14 * 35);
  EXPECT_NEAR(r.symmat[1], static_cast<double>(s01), 1e-14 * 59);
  EXPECT_EQ(r.symmat[1], r.symmat[2]);
  EXPECT_NEAR(r.symmat[3], static_cast<double>(s11), 1e-14 * 101);
  // The centring moved S00 by 81/f² · (2f − 3) ≈ 5.0e-5 of 35: visible to the bound, not to PolyBench.
  EXPECT_GT(35.0 - r.symmat[0], 4e-5);
}

TEST(CovarianceReference, OneObservationWithTheTrueMeanCentresToZero) {
  const ref::covariance_result r = ref::covariance(std::vector<double>{0.3, -7.0, 2.5}, 1, 3, 1.0);
  EXPECT_EQ(r.mean, (std::vector<double>{0.3, -7.0, 2.5}));
  EXPECT_TRUE(std::all_of(r.symmat.begin(), r.symmat.end(), [](double x) { return x == 0.0; }));
}

TEST(CovarianceReference, BothTrianglesAndTheSerialLoopAgree) {
  const dims d{65, 33};
  std::vector<double> data = make_data(input_kind::uniform_offset, d, 7);
  const ref::covariance_result r = ref::covariance(data, d.n, d.m, d.n);
  std::vector<double> mean(d.m), symmat(d.symmat_elements());
  ref::loops::covariance_serial(data, mean, symmat, d.m, d.n, d.n);  // the benchmark's serial baseline
  for (int j1 = 0; j1 < d.m; ++j1)
    for (int j2 = 0; j2 < d.m; ++j2) {
      EXPECT_EQ(r.symmat[j1 * d.m + j2], r.symmat[j2 * d.m + j1]);
      EXPECT_NEAR(r.symmat[j1 * d.m + j2], symmat[j1 * d.m + j2], 1e-12 * r.abs_product_sum[j1 * d.m + j2]);
      // P is summed in double (relative error <= γ(n)), S in long double: P >= |S| up to that.
      EXPECT_GE(r.abs_product_sum[j1 * d.m + j2] * (1 + double_gamma(d.n)), std::fabs(r.symmat[j1 * d.m + j2]));
    }
  EXPECT_GT(ref::long_double_unit_roundoff(), 0.0);
  EXPECT_LE(ref::long_double_unit_roundoff(), 0x1p-53);
}

// The centred values both routes sum: long double, the reference's own order.
std::vector<long double> long_double_centred(const std::vector<double>& data, const dims& d) {
  std::vector<long double> centred(data.size());
  for (int j = 0; j < d.m; ++j) {
    long double sum = 0.0L;
    for (int i = 0; i < d.n; ++i) sum += data[i * d.m + j];
    const long double mean = sum / static_cast<long double>(d.n);
    for (int i = 0; i < d.n; ++i) centred[i * d.m + j] = static_cast<long double>(data[i * d.m + j]) - mean;
  }
  return centred;
}

// The x87 route sweeps 32-column block pairs in 256-row chunks, four sums at a time: each sum must
// still be PolyBench's (one long double accumulator, i ascending), so it equals the plain loop bit for
// bit. Shapes cross a block, a chunk (and a partial one), the diagonal block's start and a remainder
// of 1-3 sums after the groups of four.
TEST(CovarianceReference, TheX87SumsAreThePlainLoopsBitForBit) {
  for (const dims d : {dims{300, 70}, dims{257, 37}, dims{5, 6}}) {
    SCOPED_TRACE(::testing::Message() << d.n << " x " << d.m);
    const std::vector<double> data = make_data(input_kind::uniform, d, 11);
    const ref::covariance_result r = ref::covariance(data, d.n, d.m, d.n, ref::dot_route::x87_long_double);
    const std::vector<long double> centred = long_double_centred(data, d);
    for (int j = 0; j < d.m; ++j) {
      long double sum = 0.0L;
      for (int i = 0; i < d.n; ++i) sum += data[i * d.m + j];
      EXPECT_EQ(r.mean[j], static_cast<double>(sum / static_cast<long double>(d.n)));
    }
    for (int j1 = 0; j1 < d.m; ++j1)
      for (int j2 = j1; j2 < d.m; ++j2) {
        long double sum = 0.0L;
        for (int i = 0; i < d.n; ++i) sum += centred[i * d.m + j1] * centred[i * d.m + j2];
        ASSERT_EQ(r.symmat[j1 * d.m + j2], static_cast<double>(sum)) << "symmat[" << j1 << "][" << j2 << "]";
      }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// The double-double route against binary128 sums of the same long double centred values (each product
// rounded to 113 bits: the oracle is within (n + 1)·2^-112·P of the exact sum). Its proof
// (covariance_reference.cpp) gives |result − exact| <= 2^-53·|exact| + 2·(n + 12)²·2^-106·P: checked
// as stated, so an error of the order of a double's (2^-53·P, where the sum cancels) fails. The
// shapes cross blocks, chunks, a row count not a multiple of 4 (the zero-padded group), a diagonal
// block's remainders of 1-3 columns, and one row; the inputs include PolyBench's (sums that cancel).
// (Dropping an h·l term fails it; dropping l1·l2, at most 2^-106·P, would not, and need not.)
TEST(CovarianceReference, TheDoubleDoubleSumsAreWithinTheirProvenBoundOfABinary128Oracle) {
  if (!ref::double_double_available()) GTEST_SKIP() << "no double-double route here (a CPU without AVX2 and FMA, or a compiler without -ffp-contract=off): the x87 route alone";
  const auto magnitude = [](__float128 x) { return x < 0 ? -x : x; };
  for (const dims d : {dims{300, 70}, dims{257, 37}, dims{5, 6}, dims{1, 3}, dims{1027, 9}}) {
    for (const input_kind kind : {input_kind::uniform, input_kind::uniform_offset, input_kind::polybench_init}) {
      SCOPED_TRACE(::testing::Message() << d.n << " x " << d.m << ", " << static_cast<int>(kind));
      const std::vector<double> data = make_data(kind, d, 13);
      const ref::covariance_result r = ref::covariance(data, d.n, d.m, d.n, ref::dot_route::double_double);
      const ref::covariance_result x87 = ref::covariance(data, d.n, d.m, d.n, ref::dot_route::x87_long_double);
      const std::vector<long double> centred = long_double_centred(data, d);
      const double proven = 2.0 * (d.n + 12.0) * (d.n + 12.0) * 0x1p-106, oracle = (d.n + 1.0) * 0x1p-112;
      for (int j1 = 0; j1 < d.m; ++j1)
        for (int j2 = j1; j2 < d.m; ++j2) {
          __float128 exact = 0, absolute = 0;
          for (int i = 0; i < d.n; ++i) {
            const __float128 product = static_cast<__float128>(centred[i * d.m + j1]) * centred[i * d.m + j2];
            exact += product;
            absolute += magnitude(product);
          }
          const std::size_t k = static_cast<std::size_t>(j1) * d.m + j2;
          const double error = static_cast<double>(magnitude(static_cast<__float128>(r.symmat[k]) - exact));
          const double allowed = 0x1p-53 * static_cast<double>(magnitude(exact)) * (1 + 0x1p-52) +
                                 (proven + oracle) * static_cast<double>(absolute);
          ASSERT_LE(error, allowed) << "symmat[" << j1 << "][" << j2 << "] = " << r.symmat[k];
          EXPECT_EQ(r.symmat[k], r.symmat[static_cast<std::size_t>(j2) * d.m + j1]);
          // P: Σ|h1|·|h2| (high parts, 4 lanes) against the x87 route's Σ|d1·d2|, both in double: each
          // within γ(n)·P of its exact sum, and |h| within 2^-53 of |d|.
          EXPECT_LE(std::fabs(r.abs_product_sum[k] - x87.abs_product_sum[k]),
                    (2 * double_gamma(d.n) + 0x1p-51) * x87.abs_product_sum[k]);
          ASSERT_LE(static_cast<double>(absolute), r.abs_product_sum[k] * (1 + double_gamma(d.n + 2)));
        }
      // The routes share the means and the centred sums.
      EXPECT_EQ(r.mean, x87.mean);
      EXPECT_EQ(r.abs_centred_sum, x87.abs_centred_sum);
    }
  }
}
#endif

// The double-double route is asked for where it cannot hold: without AVX2 and FMA, or for data outside
// [2^-400, 2^400] (products would leave double's range). Asking is an error; automatic takes the x87
// route there, bit for bit.
TEST(CovarianceReference, TheDoubleDoubleRouteOutsideItsReachIsAnErrorAndAutomaticTakesX87) {
  const dims d{6, 3};
  std::vector<double> data = make_data(input_kind::uniform, d, 3);
  if (!ref::double_double_available())
    EXPECT_THROW(ref::covariance(data, d.n, d.m, d.n, ref::dot_route::double_double), std::invalid_argument);
  for (const double scale : {0x1p450, 0x1p-450}) {
    SCOPED_TRACE(scale);
    std::vector<double> scaled = data;
    scaled[4] *= scale;
    EXPECT_THROW(ref::covariance(scaled, d.n, d.m, d.n, ref::dot_route::double_double), std::invalid_argument);
    const ref::covariance_result automatic = ref::covariance(scaled, d.n, d.m, d.n);
    const ref::covariance_result x87 = ref::covariance(scaled, d.n, d.m, d.n, ref::dot_route::x87_long_double);
    EXPECT_EQ(automatic.symmat, x87.symmat);
    EXPECT_EQ(automatic.abs_product_sum, x87.abs_product_sum);
  }
}

// ---- the error bound ----

TEST(CovarianceTolerance, MatchesTheFormulaOnAHandCase) {
  const ref::covariance_result r = ref::covariance(hand_data, 3, 2, 3.0);
  const tolerances t = covariance_tolerances(r, 3, 2, 3.0);
  const double w = bound_unit_roundoff();
  EXPECT_EQ(w, 0x1p-53 + 4 * ref::long_double_unit_roundoff());
  const double e0 = gamma(4, w) * 9 / 3, e1 = gamma(4, w) * 15 / 3, g = gamma(5, w);
  EXPECT_DOUBLE_EQ(t.mean[0], e0 + 0x1p-53 * 3);
  EXPECT_DOUBLE_EQ(t.mean[1], e1 + 0x1p-53 * 5);
  EXPECT_DOUBLE_EQ(t.symmat[1], g * 14 + (1 + g) * (e0 * 8 + e1 * 4 + 3 * e0 * e1) + 0x1p-53 * 14);
  EXPECT_DOUBLE_EQ(t.symmat[1], t.symmat[2]);
  // ~n·u relative: tight.
  EXPECT_LT(t.symmat[3] / 26, 1e-14);
}

// A double-precision pipeline as a GPU might run it: the mean summed in `order` (forward, reverse or
// pairwise), divided by FLOAT_N or multiplied by its rounded reciprocal, the product accumulated with
// or without fused multiply-adds, in either direction. centred_rows and mean_divisor reproduce the
// known-bad rows' bugs on the CPU.
enum class order { forward, reverse, pairwise };
struct pipeline_options {
  order sum_order = order::forward;
  bool reciprocal = false;
  bool fma = false;
  bool reverse_product = false;
  int centred_rows = -1;      // rows centred (-1: all)
  double mean_divisor = 0.0;  // 0: FLOAT_N
};

double sum_column(const std::vector<double>& x, std::size_t lo, std::size_t hi, order o) {
  if (o == order::pairwise && hi - lo > 2) {
    const std::size_t mid = lo + (hi - lo) / 2;
    return sum_column(x, lo, mid, o) + sum_column(x, mid, hi, o);
  }
  double s = 0.0;
  if (o == order::reverse)
    for (std::size_t i = hi; i-- > lo;) s += x[i];
  else
    for (std::size_t i = lo; i < hi; ++i) s += x[i];
  return s;
}

struct simulated {
  std::vector<double> mean, symmat;
};
simulated run_pipeline(std::vector<double> data, const dims& d, double float_n, const pipeline_options& o) {
  const std::size_t n = d.n, m = d.m;
  simulated out{std::vector<double>(m), std::vector<double>(m * m)};
  const double divisor = o.mean_divisor != 0.0 ? o.mean_divisor : float_n;
  for (std::size_t j = 0; j < m; ++j) {
    std::vector<double> column(n);
    for (std::size_t i = 0; i < n; ++i) column[i] = data[i * m + j];
    const double sum = sum_column(column, 0, n, o.sum_order);
    out.mean[j] = o.reciprocal ? sum * (1.0 / divisor) : sum / divisor;
  }
  const std::size_t centred = o.centred_rows < 0 ? n : static_cast<std::size_t>(o.centred_rows);
  for (std::size_t i = 0; i < std::min(n, centred); ++i)
    for (std::size_t j = 0; j < m; ++j) data[i * m + j] -= out.mean[j];
  for (std::size_t j1 = 0; j1 < m; ++j1)
    for (std::size_t j2 = 0; j2 < m; ++j2) {
      double s = 0.0;
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = o.reverse_product ? n - 1 - k : k;
        const double a = data[i * m + j1], b = data[i * m + j2];
        s = o.fma ? std::fma(a, b, s) : s + a * b;
      }
      out.symmat[j1 * m + j2] = s;
    }
  return out;
}

TEST(CovarianceTolerance, AdmitsEveryEvaluationOrderAGpuMayUse) {
  const std::vector<pipeline_options> orders{{order::forward, false, false, false},
                                             {order::reverse, true, true, true},
                                             {order::pairwise, false, true, false},
                                             {order::pairwise, true, false, true}};
  for (const dims d : {dims{1, 1}, dims{2, 2}, dims{3, 3}, dims{1, 40}, dims{300, 1}, dims{33, 65}, dims{65, 33}, dims{97, 101}})
    for (const float_n_setting setting : {float_n_setting::seed, float_n_setting::rows})
      for (const input_kind kind : inputs_at(d)) {
        const auto input = make_host_input(d, kind, setting, data_seed(kind, d));
        for (const pipeline_options& o : orders) {
          const simulated gpu = run_pipeline(input->data, d, input->float_n, o);
          const value_verdict v = judge_outputs(*input, gpu.mean, gpu.symmat);
          EXPECT_TRUE(v.passed()) << d.describe() << ' ' << name_of(setting) << ' ' << name_of(kind) << ": " << v.problem;
          EXPECT_TRUE(v.polybench.polybench_passes()) << v.polybench.describe();
        }
      }
}

TEST(CovarianceTolerance, OneUlpPassesTwiceTheBoundFails) {
  const dims d{33, 65};
  const auto input = make_host_input(d, input_kind::uniform, float_n_setting::rows, 11);
  std::vector<double> mean = input->expected_mean, symmat = input->expected_symmat;
  for (double& x : mean) x = std::nextafter(x, INFINITY);
  for (double& x : symmat) x = std::nextafter(x, -INFINITY);
  EXPECT_TRUE(judge_outputs(*input, mean, symmat).passed());
  symmat = input->expected_symmat;
  symmat[7 * 65 + 3] += 2 * input->tolerance.symmat[7 * 65 + 3];
  const value_verdict one = judge_outputs(*input, input->expected_mean, symmat);
  EXPECT_FALSE(one.passed());
  EXPECT_NE(one.problem.find("symmat[7][3]"), std::string::npos) << one.problem;
  EXPECT_TRUE(one.polybench.polybench_passes()) << "an error of ~1e-13 relative is far inside PolyBench's 1.05%";
  mean = input->expected_mean;
  mean[5] -= 2 * input->tolerance.mean[5];
  EXPECT_NE(judge_outputs(*input, mean, input->expected_symmat).problem.find("mean"), std::string::npos);
  std::vector<double> poisoned = input->expected_symmat;
  poisoned.back() = std::numeric_limits<double>::quiet_NaN();
  const value_verdict nan = judge_outputs(*input, input->expected_mean, poisoned);
  EXPECT_FALSE(nan.passed());
  EXPECT_FALSE(nan.polybench.polybench_passes()) << "an unwritten (poisoned) element counts as beyond PolyBench's threshold too";
}

TEST(CovarianceTolerance, CoversAConstantColumnCentredByTheTrueMean) {
  // d = 0 exactly, but the pipeline's mean is rounded, so its d̂ is ~E: only the n·E1·E2 term admits it.
  const dims d{7, 2};
  auto input = make_host_input(d, input_kind::uniform, float_n_setting::rows, 3);
  for (int i = 0; i < d.n; ++i) input->data[i * 2 + 1] = 0.1;
  const ref::covariance_result r = ref::covariance(input->data, d.n, d.m, input->float_n);
  input->tolerance = covariance_tolerances(r, d.n, d.m, input->float_n);
  input->expected_mean = r.mean;
  input->expected_symmat = r.symmat;
  const simulated gpu = run_pipeline(input->data, d, input->float_n, {order::forward, true, false, false});
  EXPECT_TRUE(judge_outputs(*input, gpu.mean, gpu.symmat).passed()) << judge_outputs(*input, gpu.mean, gpu.symmat).problem;
}

// ---- the point of issue 10: PolyBench's check passes a broken centring the bound rejects ----

TEST(CovarianceTolerance, BrokenCentringPassesPolybenchAtTheSeedsFloatNButNotTheBound) {
  const dims d{256, 256};
  const int quarter = 8 * ((d.n + 31) / 32);  // PolyBench/GPU's centring grid: 8·ceil(n / 32) rows
  for (const int centred_rows : {0, quarter}) {
    const auto seed = make_host_input(d, input_kind::polybench_init, float_n_setting::seed, 1);
    const simulated bad = run_pipeline(seed->data, d, seed->float_n, {.centred_rows = centred_rows});
    const value_verdict at_seed = judge_outputs(*seed, bad.mean, bad.symmat);
    EXPECT_FALSE(at_seed.passed()) << centred_rows << " rows centred";
    EXPECT_TRUE(at_seed.polybench.polybench_passes()) << at_seed.polybench.describe();
    EXPECT_LT(at_seed.polybench.max_percent, 0.1) << "the catalog: a broken centring moves symmat by < 0.1%";
    EXPECT_GT(at_seed.polybench.max_percent, 0.0);

    const auto rows = make_host_input(d, input_kind::polybench_init, float_n_setting::rows, 1);
    const simulated bad_rows = run_pipeline(rows->data, d, rows->float_n, {.centred_rows = centred_rows});
    const value_verdict at_rows = judge_outputs(*rows, bad_rows.mean, bad_rows.symmat);
    EXPECT_FALSE(at_rows.passed());
    EXPECT_FALSE(at_rows.polybench.polybench_passes()) << "at FLOAT_N = n the centring is observable: " << at_rows.polybench.describe();
  }
  // The relative shift of a missing centring is 3n(n − 1) / (FLOAT_N·(2n − 1)) on every non-zero
  // element of PolyBench's init (KERNELS.md: 4.8e-4 at 1024²).
  const auto seed = make_host_input(d, input_kind::polybench_init, float_n_setting::seed, 1);
  const simulated bad = run_pipeline(seed->data, d, seed->float_n, {.centred_rows = 0});
  const double shift = 3.0 * d.n * (d.n - 1) / (seed_float_n * (2.0 * d.n - 1));
  const std::size_t k = 100 * 256 + 200;
  EXPECT_NEAR((bad.symmat[k] - seed->expected_symmat[k]) / seed->expected_symmat[k], shift, 1e-3 * shift);
}

TEST(CovarianceTolerance, EachFloatNSettingHidesAMistakeTheOtherShows) {
  const dims d{33, 65};
  for (const input_kind kind : inputs_at(d)) {
    // A mean that ignores FLOAT_N is exactly right at FLOAT_N = n ...
    const auto rows = make_host_input(d, kind, float_n_setting::rows, 5);
    const simulated at_rows = run_pipeline(rows->data, d, rows->float_n, {.mean_divisor = static_cast<double>(d.n)});
    EXPECT_TRUE(judge_outputs(*rows, at_rows.mean, at_rows.symmat).passed());
    // ... and wrong at the seed's.
    const auto seed = make_host_input(d, kind, float_n_setting::seed, 5);
    const simulated at_seed = run_pipeline(seed->data, d, seed->float_n, {.mean_divisor = static_cast<double>(d.n)});
    EXPECT_NE(judge_outputs(*seed, at_seed.mean, at_seed.symmat).problem.find("mean:"), std::string::npos);
  }
  // A sample covariance (÷ (n − 1)) is caught at both, from n = 3 on; at n = 2 the divisor is 1.
  for (const dims d2 : {dims{2, 2}, dims{3, 3}}) {
    const auto input = make_host_input(d2, input_kind::polybench_init, float_n_setting::seed, 1);
    simulated sample = run_pipeline(input->data, d2, input->float_n, {});
    for (double& x : sample.symmat) x /= d2.n - 1;
    EXPECT_EQ(judge_outputs(*input, sample.mean, sample.symmat).passed(), d2.n == 2) << d2.describe();
  }
}

TEST(CovarianceTolerance, TheSeedsCentringBugIsCaughtAtTheFirstCase) {
  // 1 x 1, FLOAT_N = 3214212.01: the centred value is x(1 − 1/FLOAT_N); without centring symmat is
  // off by 2/FLOAT_N = 6e-7 relative (PolyBench: 6e-5%).
  const dims d{1, 1};
  const auto input = make_host_input(d, input_kind::uniform, float_n_setting::seed, data_seed(input_kind::uniform, d));
  const simulated bad = run_pipeline(input->data, d, input->float_n, {.centred_rows = 0});
  const value_verdict v = judge_outputs(*input, bad.mean, bad.symmat);
  EXPECT_FALSE(v.passed());
  EXPECT_TRUE(v.polybench.polybench_passes() || std::fabs(input->expected_symmat[0]) < 0.01) << v.polybench.describe();
}

// The known-bad rows' how_caught names the first case of the sweep that catches them. Their bugs (all
// but the fused kernel's) are reproduced by the CPU pipeline above and walked through the very sweep
// (every_case_of, in order) and judgement (judge_outputs) the GPU gate uses.
TEST(CovarianceKnownBad, TheFirstCatchOfEachRowIsTheOneItsRowNames) {
  struct expectation {
    std::string_view row;
    std::string first_catch;  // the case's size, FLOAT_N and input
  };
  for (const expectation& e : {expectation{"CovarianceCentringQuarterGrid", "N1000M1FloatNSeedUniform"},
                               expectation{"CovarianceDividesByNMinus1", "N3M3FloatNSeedPolyBenchInit"},
                               expectation{"CovarianceSkipsCentring", "N1M1FloatNSeedUniform"},
                               expectation{"CovarianceMeanDividesByRows", "N1M1FloatNSeedUniform"}}) {
    const variant& v = *find_variant(e.row);
    std::string caught;
    for (const covariance_case& c : every_case_of(v)) {
      if (!validate(v, c.d, c.float_n_value(), c.config, h100)) continue;  // refused: never a catch
      ASSERT_LT(reference_multiply_adds(c.d), 1e8) << e.row << " walked past the small sizes uncaught";
      const auto input = make_host_input(c.d, c.input, c.float_n, data_seed(c.input, c.d));
      pipeline_options o;
      if (e.row == "CovarianceCentringQuarterGrid") o.centred_rows = c.config.centre_y * ((c.d.n + c.config.centre_x - 1) / c.config.centre_x);
      if (e.row == "CovarianceSkipsCentring") o.centred_rows = 0;
      if (e.row == "CovarianceMeanDividesByRows") o.mean_divisor = c.d.n;
      simulated out = run_pipeline(input->data, c.d, input->float_n, o);
      if (e.row == "CovarianceDividesByNMinus1")
        for (double& x : out.symmat) x /= c.d.n - 1;
      const value_verdict verdict = judge_outputs(*input, out.mean, out.symmat);
      if (!verdict.passed()) {
        caught = "N" + std::to_string(c.d.n) + "M" + std::to_string(c.d.m) + name_of(c.float_n) + name_of(c.input);
        // At the seed's FLOAT_N, PolyBench's own check passes the centring bugs the bound catches.
        if (e.row == "CovarianceCentringQuarterGrid" || e.row == "CovarianceSkipsCentring") {
          EXPECT_TRUE(verdict.polybench.polybench_passes()) << e.row << ": " << verdict.polybench.describe();
        }
        break;
      }
    }
    EXPECT_EQ(caught, e.first_catch) << e.row;
  }
}

}  // namespace
}  // namespace kc::polybench::covariance::testing
