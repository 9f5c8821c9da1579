// CPU tests of PolyBench ATAX (no GPU): the reference against hand-computed cases and its long
// double accumulation, the tolerance (it admits every summation order, FMA or not, and rejects the
// known-bad rows' arithmetic on the Random input — while PolyBench's symmetric init hides it), the
// inputs, the registry rows, the launchers' validation messages and the case names.
#include "fixtures/error_bounds.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/registry_rows.hpp"
#include "reference/polybench/atax_reference.hpp"
#include "reference/polybench/percent_diff.hpp"
#include "tests/polybench/atax_checks.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <set>

namespace kc::polybench::atax::testing {
namespace {

const device_limits h100 = device_limits::hopper_h100();

std::size_t at(const atax_shape& s, int i, int j) {
  return static_cast<std::size_t>(i) * static_cast<std::size_t>(s.ny) + static_cast<std::size_t>(j);
}

// ---- reference ----

TEST(AtaxReference, HandComputedWithSigns) {
  // A = [[1, -2, 3], [-4, 5, -6]], x = [1, 2, 3]: tmp = A x = [6, -12];
  // y = A^T tmp = [1*6 + (-4)(-12), -2*6 + 5*(-12), 3*6 + (-6)(-12)] = [54, -72, 90].
  // s = [1 + 4 + 9, 4 + 10 + 18] = [14, 32]; M = [1*14 + 4*32, 2*14 + 5*32, 3*14 + 6*32] = [142, 188, 234].
  const std::vector<double> a{1, -2, 3, -4, 5, -6}, x{1, 2, 3};
  const reference::polybench::atax_result r = reference::polybench::atax(a, x, 2, 3);
  EXPECT_EQ(r.tmp, (std::vector<double>{6, -12}));
  EXPECT_EQ(r.y, (std::vector<double>{54, -72, 90}));
  EXPECT_EQ(r.magnitude, (std::vector<double>{142, 188, 234}));
}

TEST(AtaxReference, PolyBenchInitClosedForm) {
  // nx = ny = 3: A[i][j] = i j / 3, x[j] = j pi. tmp_i = (i pi / 3)(0 + 1 + 4) = 5 i pi / 3;
  // y_j = sum_i (i j / 3)(5 i pi / 3) = (5 j pi / 9)(0 + 1 + 4) = 25 j pi / 9.
  const atax_shape s{3, 3};
  const atax_input in = make_input(input_kind::polybench, s, 0);
  const reference::polybench::atax_result r = reference::polybench::atax(in.a, in.x, 3, 3);
  for (int j = 0; j < 3; ++j) {
    const double exact = 25.0 * j * std::numbers::pi / 9.0;
    EXPECT_NEAR(r.y[static_cast<std::size_t>(j)], exact, 4 * 0x1p-53 * exact) << "y[" << j << "]";
    EXPECT_EQ(r.magnitude[static_cast<std::size_t>(j)], r.y[static_cast<std::size_t>(j)]) << "no cancellation: M = |y|";
  }
}

TEST(AtaxReference, AccumulatesInLongDouble) {
  // tmp = 2^53 + 1 - 2^53 = 1: exact with a 64-bit significand; a double accumulator rounds 2^53 + 1
  // to 2^53 and returns 0. Then y = A^T tmp = [1, 1, 1].
  const std::vector<double> a{1, 1, 1}, x{0x1p53, 1, -0x1p53};
  const reference::polybench::atax_result r = reference::polybench::atax(a, x, 1, 3);
  EXPECT_EQ(r.tmp, (std::vector<double>{1}));
  EXPECT_EQ(r.y, (std::vector<double>{1, 1, 1}));
}

TEST(AtaxReference, IndependentOfThreadCount) {
  const atax_shape s{257, 1031};
  const atax_input in = make_input(input_kind::random, s, 5);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = reference::polybench::atax(in.a, in.x, 257, 1031);
  omp_set_num_threads(std::max(3, threads));
  const auto many = reference::polybench::atax(in.a, in.x, 257, 1031);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.y, many.y);
  EXPECT_EQ(one.magnitude, many.magnitude);
}

TEST(AtaxReference, RejectsMismatchedSizes) {
  const std::vector<double> a(6), x(2);
  EXPECT_THROW(reference::polybench::atax(a, x, 2, 3), std::invalid_argument);
}

// ---- tolerance ----

TEST(AtaxTolerance, IsGammaOfTheChainTimesTheMagnitude) {
  const atax_shape s{33, 65};
  EXPECT_EQ(rounding_chain(s), 98u);
  EXPECT_DOUBLE_EQ(y_tolerance(s, 1.0, 0.0), double_gamma(98) + 98 * 0x1p-62);
  EXPECT_DOUBLE_EQ(y_tolerance(s, 0.0, 8.0), 8.0 * 0x1p-53);
  // The reference-accumulation term is a 2^-9 share of the gamma term, not a widening.
  EXPECT_LT(98 * 0x1p-62, double_gamma(98) / 500);
}

// y computed in double the ways a GPU may: PolyBench's order, reversed order, with fused
// multiply-adds; or a known-bad row's arithmetic (A·A·x, and the fused kernel's Aᵀ·Aᵀ·x).
enum class model { in_order, reversed_fma, a_a_x, at_at_x };
std::vector<double> model_y(const atax_input& in, const atax_shape& s, model m) {
  const auto nx = static_cast<std::size_t>(s.nx), ny = static_cast<std::size_t>(s.ny);
  // First product: A·x, or Aᵀ·x for the fused kernel as written (square shapes only).
  std::vector<double> tmp(nx, 0.0);
  for (std::size_t i = 0; i < nx; ++i)
    for (std::size_t k = 0; k < ny; ++k) {
      const std::size_t j = m == model::reversed_fma ? ny - 1 - k : k;
      const double aij = m == model::at_at_x ? in.a[j * ny + i] : in.a[i * ny + j];
      tmp[i] = m == model::reversed_fma ? std::fma(aij, in.x[j], tmp[i]) : tmp[i] + aij * in.x[j];
    }
  std::vector<double> y(ny, 0.0);
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t k = 0; k < nx; ++k) {
      const std::size_t i = m == model::reversed_fma ? nx - 1 - k : k;
      const double a = m == model::a_a_x ? in.a[j * ny + i] : in.a[i * ny + j];  // A[j][i] for A·A·x
      y[j] = m == model::reversed_fma ? std::fma(a, tmp[i], y[j]) : y[j] + a * tmp[i];
    }
  return y;
}

std::size_t outside_bound(const prepared_input& p, const std::vector<double>& y) {
  std::size_t count = 0;
  for (std::size_t j = 0; j < y.size(); ++j)
    if (!(std::fabs(y[j] - p.expected.y[j]) <= p.tolerance[j])) ++count;
  return count;
}

TEST(AtaxTolerance, AdmitsEveryOrderWithOrWithoutFma) {
  for (const atax_shape s : {atax_shape{1, 1000}, atax_shape{1000, 1}, atax_shape{33, 65}, atax_shape{255, 257}})
    for (const input_kind kind : inputs_at(s)) {
      const auto p = make_host_input(s, kind, 11);
      EXPECT_EQ(outside_bound(*p, model_y(p->host, s, model::in_order)), 0u) << s.describe() << ' ' << name_of(kind);
      EXPECT_EQ(outside_bound(*p, model_y(p->host, s, model::reversed_fma)), 0u) << s.describe() << ' ' << name_of(kind);
    }
}

TEST(AtaxTolerance, RejectsAnErrorJustPastTheBound) {
  const auto p = make_host_input({33, 65}, input_kind::random, 3);
  std::vector<double> y = p->expected.y;
  y[17] += 2 * p->tolerance[17];
  EXPECT_EQ(outside_bound(*p, y), 1u);
  y[17] = p->expected.y[17] + 0.5 * p->tolerance[17];
  EXPECT_EQ(outside_bound(*p, y), 0u);
}

// The suite must not be fooled by its own inputs: PolyBench's square init is symmetric, so the
// known-bad rows' A·A·x and the fused kernel's Aᵀ·Aᵀ·x equal Aᵀ·A·x on it — within the bound at
// every element — while the Random input puts almost every element outside it.
TEST(AtaxTolerance, PolyBenchSquareInitHidesTheTransposeBugsRandomDoesNot) {
  for (const int n : {2, 3, 33, 255}) {
    const atax_shape s{n, n};
    const auto polybench = make_host_input(s, input_kind::polybench, 1);
    const auto random = make_host_input(s, input_kind::random, 1);
    for (const model m : {model::a_a_x, model::at_at_x}) {
      EXPECT_EQ(outside_bound(*polybench, model_y(polybench->host, s, m)), 0u) << n;
      EXPECT_GE(outside_bound(*random, model_y(random->host, s, m)), static_cast<std::size_t>(n) * 9 / 10) << n;
    }
  }
}

TEST(AtaxTolerance, PolyBenchsOwnFigureAgreesOnTheseRows) {
  // PolyBench's percent check (reported beside the verdict) passes the in-order double y and, on the
  // Random input, fails A·A·x too: for ATAX the bound and the figure agree; the figure is not the verdict.
  const atax_shape s{33, 33};
  const auto p = make_host_input(s, input_kind::random, 3);
  const auto right = reference::polybench::percent_diff_over(p->expected.y, model_y(p->host, s, model::in_order),
                                                             reference::polybench::atax_threshold_percent);
  EXPECT_TRUE(right.polybench_passes()) << right.describe();
  EXPECT_NE(right.describe().find("threshold 0.5%"), std::string::npos) << right.describe();
  const auto wrong = reference::polybench::percent_diff_over(p->expected.y, model_y(p->host, s, model::a_a_x),
                                                             reference::polybench::atax_threshold_percent);
  EXPECT_FALSE(wrong.polybench_passes()) << wrong.describe();
}

// ---- inputs ----

TEST(AtaxInputs, PolyBenchInitIsPolyBenchs) {
  const atax_shape s{4, 5};
  const atax_input in = make_input(input_kind::polybench, s, 0);
  for (int j = 0; j < s.ny; ++j) EXPECT_EQ(in.x[static_cast<std::size_t>(j)], j * std::numbers::pi);
  for (int i = 0; i < s.nx; ++i)
    for (int j = 0; j < s.ny; ++j) EXPECT_EQ(in.a[at(s, i, j)], static_cast<double>(i * j) / 4.0) << i << ',' << j;
}

TEST(AtaxInputs, SquarePolyBenchIsSymmetricRandomIsNot) {
  for (const int n : {2, 3, 33, 255}) {
    const atax_shape s{n, n};
    const atax_input poly = make_input(input_kind::polybench, s, 0), random = make_input(input_kind::random, s, 9);
    std::size_t poly_asymmetric = 0, random_asymmetric = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        poly_asymmetric += poly.a[at(s, i, j)] != poly.a[at(s, j, i)];
        random_asymmetric += random.a[at(s, i, j)] != random.a[at(s, j, i)];
      }
    EXPECT_EQ(poly_asymmetric, 0u) << n;
    EXPECT_EQ(random_asymmetric, static_cast<std::size_t>(n) * (n - 1)) << n;
  }
}

TEST(AtaxInputs, NeverAllZerosAndEveryShapeRunsRandom) {
  for (const atax_shape& s : swept_shapes()) {
    const std::vector<input_kind> kinds = inputs_at(s);
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), input_kind::random), kinds.end()) << s.describe();
    EXPECT_EQ(std::find(kinds.begin(), kinds.end(), input_kind::polybench) != kinds.end(), s.nx >= 2 && s.ny >= 2)
        << s.describe();
    if (s.elements() > (std::size_t{1} << 22)) continue;  // the seed's 4096²: as the others, and costly here
    for (const input_kind kind : kinds) {
      const auto p = make_host_input(s, kind, 21);
      const auto nonzero = [](const std::vector<double>& v) { return std::any_of(v.begin(), v.end(), [](double e) { return e != 0.0; }); };
      EXPECT_TRUE(nonzero(p->host.a) && nonzero(p->host.x)) << s.describe() << ' ' << name_of(kind);
      EXPECT_TRUE(nonzero(p->expected.y)) << "y is all zeros: " << s.describe() << ' ' << name_of(kind);
    }
  }
}

TEST(AtaxInputs, RandomDependsOnTheSeed) {
  const atax_input one = make_input(input_kind::random, {3, 3}, 1), two = make_input(input_kind::random, {3, 3}, 2);
  EXPECT_NE(one.a, two.a);
  EXPECT_NE(one.x, two.x);
  EXPECT_NE(std::vector<double>(one.a.begin(), one.a.begin() + 3), one.x) << "x must not repeat A's draws";
}

// ---- registry ----

TEST(AtaxRegistry, RowsAreNamedAndComplete) {
  expect_registry_rows_complete(correct_variants(), known_bad_variants(), find_variant, "004", "Atax");
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list) EXPECT_EQ(v.catalog_id, "ATAX") << v.name;
  for (const variant& v : known_bad_variants())
    EXPECT_EQ(v.detection, caught_by::value_checks) << v.name << ": no ATAX row needs a sanitizer gate";
  EXPECT_EQ(row_names(correct_variants()), (std::set<std::string_view>{"AtaxTwoKernels", "AtaxSharedStaged", "AtaxCublas"}));
  EXPECT_EQ(row_names(known_bad_variants()), (std::set<std::string_view>{"AtaxFusedAsWritten", "AtaxRowPerThreadBothPhases"}));
  EXPECT_TRUE(find_variant("AtaxCublas")->library);
}

TEST(AtaxRegistry, EveryKnownBadRowFacesTheWholeSweep) {
  for (const variant& v : known_bad_variants()) {
    const std::vector<atax_case> cases = every_case_of(v);
    EXPECT_EQ(cases.size(), every_case_of(correct_variants()[0]).size()) << v.name;
    for (const atax_case& c : cases) EXPECT_TRUE(validate(v, c.s, c.config, h100).is_ok()) << c.name();
  }
}

// ---- validation ----

std::string refusal(std::string_view name, atax_shape s, atax_config config, const device_limits& limits = h100) {
  const launch_status status = validate(*find_variant(name), s, config, limits);
  EXPECT_EQ(status.what(), launch_status::kind::refused) << name << ' ' << s.describe() << ' ' << config.describe();
  return status.message();
}

TEST(AtaxValidation, AcceptsTheSweptConfigurations) {
  for (const atax_case& c : sweep(correct_variants())) {
    const launch_status status = validate(*c.v, c.s, c.config, h100);
    EXPECT_TRUE(status.is_ok()) << c.name() << ": " << status.message();
  }
}

TEST(AtaxValidation, RefusesWithActionableMessages) {
  EXPECT_NE(refusal("AtaxTwoKernels", {0, 5}, {256}).find("nx >= 1 and ny >= 1"), std::string::npos);
  EXPECT_NE(refusal("AtaxCublas", {5, 0}, {0}).find("at least one row and one column"), std::string::npos);
  EXPECT_NE(refusal("AtaxTwoKernels", {5, 5}, {0}).find("has no threads; use 1 to 1024"), std::string::npos);
  EXPECT_NE(refusal("AtaxSharedStaged", {5, 5}, {2048}).find("exceeds this device's 1024 threads per block"),
            std::string::npos);
  EXPECT_NE(refusal("AtaxCublas", {5, 5}, {256}).find("give block 0 (library-chosen), not block 256"), std::string::npos);
  const std::string seed_block = refusal("AtaxFusedAsWritten", {5, 5}, {100});
  EXPECT_NE(seed_block.find("BLOCK_SIZE compiled in"), std::string::npos) << seed_block;
  EXPECT_NE(seed_block.find("not 100"), std::string::npos) << seed_block;
  EXPECT_NE(refusal("AtaxFusedAsWritten", {50000, 50000}, {256}).find("past 2^31 - 1"), std::string::npos);
  device_limits small = h100;
  small.max_grid_x = 10;
  EXPECT_NE(refusal("AtaxTwoKernels", {17, 4096}, {32}, small).find("4096 threads need 128 blocks of 32"), std::string::npos);
  small = h100;
  small.shared_memory_per_block = 1024;
  EXPECT_NE(refusal("AtaxSharedStaged", {5, 5}, {256}, small).find("2048 bytes of shared memory"), std::string::npos);
  EXPECT_TRUE(validate(*find_variant("AtaxSharedStaged"), {5, 5}, {128}, small).is_ok());
  EXPECT_TRUE(validate(*find_variant("AtaxTwoKernels"), {1, 1}, {1}, h100).is_ok());  // any block for the correct kernels
  EXPECT_TRUE(validate(*find_variant("AtaxTwoKernels"), {97, 101}, {1000}, h100).is_ok());
}

TEST(AtaxLaunch, LaunchByNameRefusesUnknownAndKnownBadNames) {
  EXPECT_EQ(launch_by_name("NoSuchKernel", nullptr, nullptr, nullptr, nullptr, {1, 1}, {32}, {}).what(),
            launch_status::kind::refused);
  EXPECT_EQ(launch_by_name("AtaxFusedAsWritten", nullptr, nullptr, nullptr, nullptr, {1, 1}, {32}, {}).what(),
            launch_status::kind::refused);
}

// ---- cases ----

TEST(AtaxCases, NamesUnitsAndCosts) {
  const atax_case c{find_variant("AtaxTwoKernels"), {33, 65}, {96}, input_kind::random};
  EXPECT_EQ(c.name(), "AtaxTwoKernelsNx33Ny65B96Random");
  EXPECT_EQ(::testing::PrintToString(c).rfind("unit:AtaxTwoKernels cost:", 0), 0u);
  const atax_case l{find_variant("AtaxCublas"), {4096, 4096}, {0}, input_kind::polybench};
  EXPECT_EQ(l.name(), "AtaxCublasNx4096Ny4096PolyBench");
  EXPECT_EQ(l.unit(), "AtaxCublas.Large");
  EXPECT_GT(l.cost(), 2.0);
  std::set<std::string> names;
  for (const atax_case& k : sweep(correct_variants())) {
    EXPECT_TRUE(names.insert(k.name()).second) << "duplicate case " << k.name();
    // gpu-quick (cost <= 2) keeps every case but the .Large ones.
    EXPECT_EQ(k.cost() <= 2.0, k.unit().find(".Large") == std::string::npos) << k.name();
  }
}

TEST(AtaxCases, SweepCoversTheBriefsShapesBlocksAndInputs) {
  const std::vector<atax_shape> shapes = swept_shapes();
  for (const atax_shape s : {atax_shape{1, 1}, atax_shape{2, 2}, atax_shape{3, 3}, atax_shape{1, 1000}, atax_shape{1000, 1},
                             atax_shape{33, 65}, atax_shape{65, 33}, atax_shape{4096, 17}, atax_shape{17, 4096},
                             atax_shape{4096, 4096}})
    EXPECT_NE(std::find(shapes.begin(), shapes.end(), s), shapes.end()) << s.describe();
  const std::vector<atax_config> blocks = swept_configs(*find_variant("AtaxSharedStaged"));
  for (const int b : {32, 96, 128, 256, 1024})
    EXPECT_NE(std::find(blocks.begin(), blocks.end(), atax_config{b}), blocks.end()) << b;
  EXPECT_EQ(swept_configs(*find_variant("AtaxCublas")), (std::vector<atax_config>{{0}}));
  // Per shape: 5 blocks x 2 hand-written variants + cuBLAS, times the inputs there.
  std::size_t expected = 0;
  for (const atax_shape& s : shapes) expected += inputs_at(s).size() * (5 + 5 + 1);
  EXPECT_EQ(sweep(correct_variants()).size(), expected);
}

}  // namespace
}  // namespace kc::polybench::atax::testing
