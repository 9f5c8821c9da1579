// CPU tests of the conv2d slice (no GPU): the registry rows, the launchers' validation messages, the
// grids (the seed's, and the known-bad one's hole), the reference against hand-computed cases, the
// error bound (it admits every evaluation order a GPU may use, and rejects the known-bad stencils and
// errors PolyBench's own check lets through), the host half of the check, and the case names.
#include "fixtures/registry_rows.hpp"
#include "kernels/polybench/conv2d/launchers.hpp"
#include "reference/polybench/conv2d_reference.hpp"
#include "reference/polybench/percent_diff.hpp"
#include "tests/polybench/conv2d_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>

namespace kc::polybench::conv2d::testing {
namespace {

namespace poly = reference::polybench;
const device_limits h100 = device_limits::hopper_h100();

// ---- registry ----

TEST(Conv2dRegistry, RowsAreNamedAndComplete) {
  expect_registry_rows_complete(correct_variants(), known_bad_variants(), find_variant, "004", "Conv2d");
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list) EXPECT_EQ(v.catalog_id, "Conv2D") << v.name;
  EXPECT_EQ(row_names(correct_variants()), (std::set<std::string_view>{"Conv2dDirect", "Conv2dSharedTile"}));
  // The issue's three rows are caught by values; the barrier-less tile by racecheck.
  for (const char* row : {"Conv2dGridFromNiBothDims", "Conv2dGridSwapped", "Conv2dWritesBorder", "Conv2dCoefficientsTransposed"}) {
    ASSERT_NE(find_variant(row), nullptr) << row;
    EXPECT_EQ(find_variant(row)->detection, caught_by::value_checks) << row;
  }
  ASSERT_NE(find_variant("Conv2dSharedTileNoSync"), nullptr);
  EXPECT_EQ(find_variant("Conv2dSharedTileNoSync")->detection, caught_by::racecheck);
}

TEST(Conv2dRegistry, EveryKnownBadRowFacesTheCorrectSweep) {
  const std::size_t full = sweep(std::span<const variant>(correct_variants().data(), 1)).size();
  for (const variant& v : known_bad_variants()) EXPECT_EQ(every_case_of(v).size(), full) << v.name;
}

TEST(Conv2dRegistry, KernelAndReferenceCoefficientsAreKernelsMdsAndAgree) {
  using k = coefficients;
  using r = poly::conv2d_coefficients;
  // KERNELS.md §5: c11=+0.2, c21=+0.5, c31=−0.8, c12=−0.3, c22=+0.6, c32=−0.9, c13=+0.4, c23=+0.7, c33=+0.10.
  const double md[9] = {+0.2, -0.3, +0.4, +0.5, +0.6, +0.7, -0.8, -0.9, +0.10};
  const double kernel[9] = {k::c11, k::c12, k::c13, k::c21, k::c22, k::c23, k::c31, k::c32, k::c33};
  const double ref[9] = {r::c11, r::c12, r::c13, r::c21, r::c22, r::c23, r::c31, r::c32, r::c33};
  for (int t = 0; t < 9; ++t) {
    EXPECT_EQ(kernel[t], md[t]) << "term " << t;
    EXPECT_EQ(ref[t], md[t]) << "term " << t;
  }
}

TEST(Conv2dRegistry, KernelHandlesForCorrectRowsOnly) {
  // No CUDA call: the handle is a function pointer and the launch's block and shared memory.
  const kernel_handle tile = kernel_handle_of(*find_variant("Conv2dSharedTile"), {32, 8});
  EXPECT_EQ(tile.block_threads, 256);
  EXPECT_EQ(tile.dynamic_shared_bytes, 34u * 10u * sizeof(double));
  EXPECT_EQ(kernel_handle_of(*find_variant("Conv2dDirect"), {16, 16}).dynamic_shared_bytes, 0u);
  for (const variant& v : known_bad_variants()) EXPECT_FALSE(kernel_handle_of(v, {16, 16})) << v.name;
}

// ---- validation ----

std::string refusal(std::string_view name, std::size_t ni, std::size_t nj, conv2d_config config,
                    const device_limits& limits = h100) {
  const launch_status status = validate(*find_variant(name), ni, nj, config, limits);
  EXPECT_EQ(status.what(), launch_status::kind::refused) << name << ' ' << ni << 'x' << nj << ' ' << config.describe();
  return status.message();
}

TEST(Conv2dValidation, AcceptsEverySweptCase) {
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list)
      for (const conv2d_case& c : every_case_of(v)) {
        const launch_status status = validate(v, c.size.ni, c.size.nj, c.config, h100);
        EXPECT_TRUE(status.is_ok()) << c.name() << ": " << status.message();
      }
}

TEST(Conv2dValidation, RefusesWithActionableMessages) {
  EXPECT_NE(refusal("Conv2dDirect", 0, 5, {}).find("nothing to convolve"), std::string::npos);
  EXPECT_NE(refusal("Conv2dDirect", 5, 0, {}).find("at least 1"), std::string::npos);
  EXPECT_NE(refusal("Conv2dDirect", std::size_t{1} << 31, 4, {256, 1}).find("are int"), std::string::npos);
  EXPECT_NE(refusal("Conv2dDirect", 10, 10, {0, 16}).find("has no threads"), std::string::npos);
  EXPECT_NE(refusal("Conv2dDirect", 10, 10, {2048, 1}).find("exceeds this device's 1024 threads along x or y"),
            std::string::npos);
  const std::string too_many = refusal("Conv2dSharedTile", 10, 10, {64, 32});
  EXPECT_NE(too_many.find("is 2048 threads, more than this device's 1024 per block"), std::string::npos) << too_many;
  // 70000 rows of 1-row blocks: more than 65535 row blocks; the message says what block_y fits.
  const std::string rows = refusal("Conv2dDirect", 70000, 3, {256, 1});
  EXPECT_NE(rows.find("70000 row blocks"), std::string::npos) << rows;
  EXPECT_NE(rows.find("use block_y >= 2"), std::string::npos) << rows;
  EXPECT_TRUE(validate(*find_variant("Conv2dDirect"), 70000, 3, {16, 2}, h100).is_ok());
  device_limits narrow = h100;
  narrow.max_grid_x = 10;
  EXPECT_NE(refusal("Conv2dDirect", 3, 1000, {16, 16}, narrow).find("use a wider block"), std::string::npos);
  device_limits little_shared = h100;
  little_shared.shared_memory_per_block = 1000;
  const std::string tile = refusal("Conv2dSharedTile", 100, 100, {16, 16}, little_shared);
  EXPECT_NE(tile.find("18 x 18 tile of doubles (2592 bytes)"), std::string::npos) << tile;
  EXPECT_TRUE(validate(*find_variant("Conv2dDirect"), 100, 100, {16, 16}, little_shared).is_ok());
  // Tiny arrays are valid: nothing is written, and the suite checks that.
  EXPECT_TRUE(validate(*find_variant("Conv2dDirect"), 1, 1, {32, 32}, h100).is_ok());
  // The swapped grid's rows of blocks come from nj: refused where CUDA would reject the launch.
  EXPECT_NE(refusal("Conv2dGridSwapped", 3, 70000, {256, 1}).find("past CUDA's 65535"), std::string::npos);
}

TEST(Conv2dLaunch, LaunchByNameRefusesUnknownAndKnownBadNames) {
  EXPECT_EQ(launch_by_name("NoSuchKernel", nullptr, nullptr, 3, 3, {}).what(), launch_status::kind::refused);
  EXPECT_EQ(launch_by_name("Conv2dWritesBorder", nullptr, nullptr, 3, 3, {}).what(), launch_status::kind::refused);
}

// ---- grids ----

TEST(Conv2dGrid, IsTheSeedsGridAndCoversEveryElement) {
  for (const size_2d s : swept_sizes())
    for (const conv2d_config& config : swept_configs()) {
      const grid_2d g = grid_for(s.ni, s.nj, config);
      const auto bx = static_cast<std::size_t>(config.block_x), by = static_cast<std::size_t>(config.block_y);
      if (config == seed_block) {
        EXPECT_EQ(g.x, (s.nj - 1) / 16 + 1);  // the seed's numBlocksX = (NJ - 1) / BLOCK_SIZE_PER_DIM + 1
        EXPECT_EQ(g.y, (s.ni - 1) / 16 + 1);
      }
      EXPECT_GE(g.x * bx, s.nj);
      EXPECT_LT((g.x - 1) * bx, s.nj);
      EXPECT_GE(g.y * by, s.ni);
      EXPECT_LT((g.y - 1) * by, s.ni);
    }
}

// Interior points of a ni × nj array that a grid (x: column blocks, y: row blocks) leaves without a thread.
std::size_t uncovered_by(const grid_2d& g, size_2d s, const conv2d_config& config) {
  const std::size_t columns = g.x * static_cast<std::size_t>(config.block_x);
  const std::size_t rows = g.y * static_cast<std::size_t>(config.block_y);
  std::size_t uncovered = 0;
  for (std::size_t i = 1; i + 1 < s.ni; ++i)
    for (std::size_t j = 1; j + 1 < s.nj; ++j) uncovered += i >= rows || j >= columns;
  return uncovered;
}

using grid_rule = grid_2d (*)(std::size_t, std::size_t, const conv2d_config&);

// The first size of the sweep where `rule` leaves an interior point unwritten under `config`.
std::optional<size_2d> first_catch(grid_rule rule, const conv2d_config& config) {
  for (const size_2d s : swept_sizes())
    if (uncovered_by(rule(s.ni, s.nj, config), s, config) > 0) return s;
  return std::nullopt;
}

TEST(Conv2dGrid, TheKnownBadGridsLeaveInteriorPointsUnwrittenOnlyOffTheSquare) {
  for (const grid_rule rule : {detail::grid_from_ni_both_dims, detail::grid_swapped}) {
    // Square sizes (the only ones the seed and PolyBench/GPU ran) are covered in full: why the slips go unseen.
    for (const conv2d_config& config : swept_configs())
      for (const std::size_t n : {3u, 4u, 18u, 97u, 4096u}) EXPECT_EQ(uncovered_by(rule(n, n, config), {n, n}, config), 0u);
    // Every configuration of the sweep meets a size that exposes them, first 3 x 1000 (one column
    // block of <= 256 columns for 998 interior columns).
    for (const conv2d_config& config : swept_configs()) EXPECT_EQ(first_catch(rule, config), (size_2d{3, 1000})) << config.describe();
  }
  EXPECT_EQ(uncovered_by(detail::grid_from_ni_both_dims(3, 1000, {16, 16}), {3, 1000}, {16, 16}), 998u - 15u);
  // Tall arrays: the swapped grid (rows from nj) leaves rows unwritten, the from-ni one covers them.
  for (const conv2d_config& config : swept_configs()) {
    EXPECT_GT(uncovered_by(detail::grid_swapped(1000, 3, config), {1000, 3}, config), 0u) << config.describe();
    EXPECT_EQ(uncovered_by(detail::grid_from_ni_both_dims(1000, 3, config), {1000, 3}, config), 0u) << config.describe();
    EXPECT_GT(uncovered_by(detail::grid_swapped(4096, 17, config), {4096, 17}, config), 0u) << config.describe();
  }
  // And the correct grid leaves nothing anywhere.
  for (const conv2d_config& config : swept_configs()) EXPECT_EQ(first_catch(grid_for, config), std::nullopt);
}

// ---- reference ----

std::vector<double> run_reference(const std::vector<double>& a, std::size_t ni, std::size_t nj,
                                  std::vector<double>* magnitude = nullptr, double fill = -7.0) {
  std::vector<double> b(ni * nj, fill), m(ni * nj, fill);
  poly::conv2d(a, ni, nj, b, m);
  if (magnitude != nullptr) *magnitude = m;
  return b;
}

TEST(Conv2dReference, HandComputedThreeByThree) {
  // a = [1 2 3; 4 5 6; 7 8 9]: b[1][1] = 0.2·1 − 0.3·4 + 0.4·7 + 0.5·2 + 0.6·5 + 0.7·8 − 0.8·3 − 0.9·6 + 0.1·9 = 4.5,
  // Σ|c·a| = 22.5. With c12 and c21 swapped it would be 6.1.
  const std::vector<double> a{1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<double> magnitude;
  const std::vector<double> b = run_reference(a, 3, 3, &magnitude);
  EXPECT_NEAR(b[4], 4.5, 1e-14);
  EXPECT_NEAR(magnitude[4], 22.5, 1e-14);
  EXPECT_GE(magnitude[4], 22.5);  // rounded up
  for (const std::size_t border : {0u, 1u, 2u, 3u, 5u, 6u, 7u, 8u}) {
    EXPECT_EQ(b[border], -7.0) << "the reference wrote border element " << border;
    EXPECT_EQ(magnitude[border], -7.0);
  }
}

TEST(Conv2dReference, EachCoefficientMultipliesItsOwnNeighbour) {
  // A unit impulse at a[2][2] of a 5 × 5 array: b[i][j] picks a[i+di][j+dj] with c(dj+2)(di+2), so
  // b[i][j] = c(4−j)(4−i): b[3][3] = c11 (the impulse is its up-left neighbour), b[2][3] = c12, ...
  std::vector<double> a(25, 0.0);
  a[2 * 5 + 2] = 1.0;
  const std::vector<double> b = run_reference(a, 5, 5);
  using c = poly::conv2d_coefficients;
  const double expected[3][3] = {// rows i = 1, 2, 3; columns j = 1, 2, 3
                                 {c::c33, c::c23, c::c13},
                                 {c::c32, c::c22, c::c12},
                                 {c::c31, c::c21, c::c11}};
  for (std::size_t i = 1; i <= 3; ++i)
    for (std::size_t j = 1; j <= 3; ++j) EXPECT_EQ(b[i * 5 + j], expected[i - 1][j - 1]) << "b[" << i << "][" << j << "]";
}

TEST(Conv2dReference, ConstantInputGivesTheCoefficientSum) {
  const std::vector<double> a(7 * 9, 1.0);
  const std::vector<double> b = run_reference(a, 7, 9);
  for (std::size_t i = 1; i + 1 < 7; ++i)
    for (std::size_t j = 1; j + 1 < 9; ++j) EXPECT_NEAR(b[i * 9 + j], 0.5, 1e-15);
}

TEST(Conv2dReference, NoInteriorWritesNothing) {
  for (const size_2d s : {size_2d{1, 1}, size_2d{2, 2}, size_2d{1, 1000}, size_2d{1000, 1}, size_2d{2, 1000}, size_2d{1000, 2}}) {
    const std::vector<double> b = run_reference(std::vector<double>(s.ni * s.nj, 1.0), s.ni, s.nj);
    EXPECT_TRUE(std::all_of(b.begin(), b.end(), [](double x) { return x == -7.0; })) << s.ni << 'x' << s.nj;
  }
  const std::vector<double> short_a(5);
  std::vector<double> b(6), magnitude(6);
  EXPECT_THROW(poly::conv2d(short_a, 2, 3, b, magnitude), std::invalid_argument);
}

// ---- the error bound ----

struct terms9 {
  double c[9], a[9];
};
terms9 terms_at(const std::vector<double>& a, std::size_t nj, std::size_t i, std::size_t j, bool transposed = false) {
  using k = poly::conv2d_coefficients;
  const double* up = &a[(i - 1) * nj];
  const double* mid = up + nj;
  const double* down = mid + nj;
  terms9 t{{k::c11, k::c12, k::c13, k::c21, k::c22, k::c23, k::c31, k::c32, k::c33},
           {up[j - 1], mid[j - 1], down[j - 1], up[j], mid[j], down[j], up[j + 1], mid[j + 1], down[j + 1]}};
  if (transposed) std::swap(t.c[1], t.c[3]);
  return t;
}

// Evaluation orders a GPU may use for the same 9-term sum, all in double.
double left_to_right(const terms9& t) {
  double s = t.c[0] * t.a[0];
  for (int k = 1; k < 9; ++k) s = s + t.c[k] * t.a[k];
  return s;
}
double fma_chain(const terms9& t) {
  double s = t.c[0] * t.a[0];
  for (int k = 1; k < 9; ++k) s = std::fma(t.c[k], t.a[k], s);
  return s;
}
double fma_chain_reversed(const terms9& t) {
  double s = t.c[8] * t.a[8];
  for (int k = 7; k >= 0; --k) s = std::fma(t.c[k], t.a[k], s);
  return s;
}
double pairwise(const terms9& t) {
  double p[9];
  for (int k = 0; k < 9; ++k) p[k] = t.c[k] * t.a[k];
  return (((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]))) + p[8];
}

TEST(Conv2dTolerance, AdmitsEveryEvaluationOrderAGpuMayUse) {
  const size_2d size{61, 67};
  for (const input_kind kind : {input_kind::polybench, input_kind::signed_real}) {
    const auto input = make_host_input(kind, size, 20261122);
    std::size_t checked = 0;
    double worst_in_roundings = 0.0;  // largest |error| / (u·Σ|c·a|) any order reached
    for (std::size_t i = 1; i + 1 < size.ni; ++i)
      for (std::size_t j = 1; j + 1 < size.nj; ++j) {
        const std::size_t at = i * size.nj + j;
        const terms9 t = terms_at(input->a, size.nj, i, j);
        const double tolerance = conv2d_tolerance(input->expected[at], input->magnitude[at]);
        for (const double got : {left_to_right(t), fma_chain(t), fma_chain_reversed(t), pairwise(t)}) {
          ASSERT_LE(std::fabs(got - input->expected[at]), tolerance) << name_of(kind) << " b[" << i << "][" << j << "]";
          worst_in_roundings = std::max(worst_in_roundings, std::fabs(got - input->expected[at]) / (0x1p-53 * input->magnitude[at]));
        }
        ++checked;
      }
    EXPECT_EQ(checked, interior_points(size.ni, size.nj));
    // Not a loose bound: legitimate orders reach several roundings' worth (~3.5 u·Σ|c·a| measured on
    // 500 x 500, against the bound's ~10), so a tolerance of one rounding would fail correct kernels.
    EXPECT_GT(worst_in_roundings, 1.0) << name_of(kind);
  }
}

TEST(Conv2dTolerance, IsTightAndStatedInUnitsOfTheMagnitude) {
  // γ_9 + γ_9(2^-64) ≈ 9.99e-16 per unit of Σ|c·a|, plus 2^-53 of |ref|.
  EXPECT_NEAR(conv2d_tolerance(0.0, 1.0), 9.0 * 0x1p-53, 1e-18);
  EXPECT_NEAR(conv2d_tolerance(1.0, 1.0), 10.0 * 0x1p-53, 1e-18);
  EXPECT_EQ(conv2d_tolerance(0.0, 0.0), 0.0);  // an all-zero neighbourhood must give exactly 0
  EXPECT_GE(conv2d_tolerance(0.0, 1.0), 9.0 * 0x1p-53 / (1.0 - 9.0 * 0x1p-53));
}

TEST(Conv2dTolerance, RejectsTheTransposedCoefficientsAndSmallErrorsPolybenchPasses) {
  const size_2d size{33, 65};
  const auto input = make_host_input(input_kind::polybench, size, 7);
  std::vector<double> transposed(input->expected), nudged(input->expected);
  for (std::size_t i = 1; i + 1 < size.ni; ++i)
    for (std::size_t j = 1; j + 1 < size.nj; ++j) {
      const std::size_t at = i * size.nj + j;
      transposed[at] = left_to_right(terms_at(input->a, size.nj, i, j, true));
      nudged[at] = input->expected[at] * (1.0 + 1e-4);  // 0.01%: below PolyBench's 0.05% threshold
    }
  const b_verdict swapped = judge_output(*input, transposed);
  EXPECT_FALSE(swapped.ok());
  EXPECT_GT(swapped.interior_wrong, swapped.interior_checked * 99 / 100);  // almost every point moves by 0.8·Δa
  const b_verdict small = judge_output(*input, nudged);
  EXPECT_FALSE(small.ok());
  EXPECT_TRUE(small.polybench.polybench_passes()) << small.polybench.describe();  // PolyBench would pass it
  EXPECT_EQ(small.polybench.compared, interior_points(size.ni, size.nj));
}

// ---- the host half of the check ----

TEST(Conv2dCheck, JudgesBorderAndInteriorApart) {
  const size_2d size{5, 6};
  const auto input = make_host_input(input_kind::signed_real, size, 3);
  std::vector<double> actual(input->expected);
  EXPECT_TRUE(judge_output(*input, actual).ok());
  EXPECT_EQ(judge_output(*input, actual).border_checked, 5u * 6u - 3u * 4u);
  EXPECT_EQ(judge_output(*input, actual).interior_checked, 3u * 4u);

  actual[0 * 6 + 3] = 0.0;  // a border element written (with any value)
  b_verdict v = judge_output(*input, actual);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.border_changed, 1u);
  EXPECT_NE(v.describe().find("b[0][3] = 0"), std::string::npos) << v.describe();

  actual = input->expected;
  actual[2 * 6 + 2] = poison_value();  // an interior point never written
  v = judge_output(*input, actual);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.interior_unwritten, 1u);
  EXPECT_NE(v.describe().find("b[2][2] expected"), std::string::npos) << v.describe();
  EXPECT_FALSE(v.polybench.polybench_passes());  // a NaN is beyond any threshold
  // A NaN that is not the poison (a read of a guard canary) is named differently.
  actual[2 * 6 + 2] = std::nan("");
  EXPECT_NE(judge_output(*input, actual).describe().find("out of bounds"), std::string::npos);
}

TEST(Conv2dCheck, NoInteriorMeansEverythingIsBorder) {
  for (const size_2d size : {size_2d{1, 1}, size_2d{2, 1000}, size_2d{1000, 2}}) {
    const auto input = make_host_input(input_kind::polybench, size, 3);
    std::vector<double> actual(size.ni * size.nj, poison_value());
    const b_verdict v = judge_output(*input, actual);
    EXPECT_TRUE(v.ok());
    EXPECT_EQ(v.border_checked, size.ni * size.nj);
    EXPECT_EQ(v.interior_checked, 0u);
    actual.back() = 0.0;
    EXPECT_FALSE(judge_output(*input, actual).ok());
  }
}

TEST(Conv2dCheck, ThePoisonIsANanOfAllOnes) {
  const double p = poison_value();
  EXPECT_TRUE(std::isnan(p));
  std::uint64_t bits;
  std::memcpy(&bits, &p, sizeof bits);
  EXPECT_EQ(bits, ~std::uint64_t{0});
}

// ---- cases and inputs ----

TEST(Conv2dCases, NamesUnitsAndCosts) {
  const variant& v = *find_variant("Conv2dDirect");
  const conv2d_case c{&v, {33, 65}, {32, 8}, input_kind::polybench};
  EXPECT_EQ(c.name(), "Conv2dDirectNi33Nj65B32x8Polybench");
  EXPECT_EQ(::testing::PrintToString(c).rfind("unit:Conv2dDirect cost:", 0), 0u);
  const conv2d_case big{&v, {4096, 4096}, {256, 1}, input_kind::signed_real};
  EXPECT_EQ(big.name(), "Conv2dDirectNi4096Nj4096B256x1SignedReal");
  EXPECT_EQ(big.unit(), "Conv2dDirect.Large");
  EXPECT_GT(big.cost(), 2.0);  // not in gpu-quick
  std::set<std::string> names;
  std::size_t large = 0;
  const std::vector<conv2d_case> all = sweep(correct_variants());
  EXPECT_EQ(all.size(), correct_variants().size() * swept_sizes().size() * 2 * swept_configs().size());
  for (const conv2d_case& k : all) {
    EXPECT_TRUE(names.insert(k.name()).second) << "duplicate case " << k.name();
    if (k.size.ni * k.size.nj > large_elements) {
      ++large;
      EXPECT_EQ(k.unit(), std::string(k.v->name) + ".Large");
    } else {
      EXPECT_LE(k.cost(), 2.0) << k.name() << " would drop out of gpu-quick";
    }
  }
  EXPECT_EQ(large, correct_variants().size() * 2 * swept_configs().size());  // 4096² only
}

TEST(Conv2dCases, SweepHoldsTheIssuesSizesAndConfigurations) {
  const std::vector<size_2d> sizes = swept_sizes();
  for (const size_2d s : {size_2d{1, 1}, size_2d{2, 2}, size_2d{3, 3}, size_2d{1, 1000}, size_2d{1000, 1}, size_2d{3, 1000},
                          size_2d{33, 65}, size_2d{65, 33}, size_2d{97, 101}, size_2d{4096, 17}, size_2d{17, 4096},
                          size_2d{4096, 4096}})
    EXPECT_NE(std::find(sizes.begin(), sizes.end(), s), sizes.end()) << s.ni << 'x' << s.nj;
  const std::vector<conv2d_config> configs = swept_configs();
  for (const conv2d_config c : {conv2d_config{16, 16}, conv2d_config{32, 8}, conv2d_config{8, 8}, conv2d_config{32, 32},
                                conv2d_config{256, 1}})
    EXPECT_NE(std::find(configs.begin(), configs.end(), c), configs.end()) << c.describe();
}

TEST(Conv2dInputs, SeededNonSymmetricAndInRange) {
  const size_2d size{64, 64};
  const std::vector<double> p = make_input(input_kind::polybench, size, 11);
  const std::vector<double> s = make_input(input_kind::signed_real, size, 11);
  EXPECT_EQ(p, make_input(input_kind::polybench, size, 11));  // deterministic
  EXPECT_NE(p, make_input(input_kind::polybench, size, 12));
  EXPECT_TRUE(std::all_of(p.begin(), p.end(), [](double x) { return x >= 0.0 && x < 1.0; }));
  EXPECT_TRUE(std::all_of(s.begin(), s.end(), [](double x) { return x >= -1.0 && x < 1.0; }));
  EXPECT_TRUE(std::any_of(s.begin(), s.end(), [](double x) { return x < 0.0; }));
  EXPECT_TRUE(std::any_of(s.begin(), s.end(), [](double x) { return x > 0.0; }));
  // Not symmetric: a transposed read (a[j][i] for a[i][j]) cannot hide.
  std::size_t asymmetric = 0;
  for (std::size_t i = 0; i < size.ni; ++i)
    for (std::size_t j = 0; j < i; ++j) asymmetric += p[i * size.nj + j] != p[j * size.nj + i];
  EXPECT_EQ(asymmetric, size.ni * (size.ni - 1) / 2);
}

}  // namespace
}  // namespace kc::polybench::conv2d::testing
