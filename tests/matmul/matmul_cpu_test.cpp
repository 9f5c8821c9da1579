// CPU-only tests of the matmul family: what each launcher accepts and the message for what it
// refuses, the report's grids, the registry against KERNELS.md §3, the reference, and Freivalds'
// check (including that it rejects a wrong product at the stated probability).
#include "fixtures/generators.hpp"
#include "kernels/matmul/matmul.hpp"
#include "reference/matmul_reference.hpp"
#include "tests/matmul/matmul_checks.hpp"
#include "tests/matmul/report_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

namespace kc::matmul {
namespace {

const device_limits h100 = device_limits::hopper_h100();

const variant& named(std::string_view name) { return *find_variant(name); }

std::string refusal(const variant& v, shape s, matmul_config c) {
  const launch_status status = v.validate(s, c, h100);
  EXPECT_FALSE(status) << v.name << " accepted " << s.describe() << ' ' << c.describe();
  return status.message();
}

TEST(MatmulValidation, SingleBlockPatchSaysWhatTileWidthWouldFit) {
  const variant& mm2 = named("SingleBlockPatch");
  EXPECT_EQ(refusal(mm2, {1024, 1024, 1024}, {32, 16}), "TILE_WIDTH 16 covers 512 of n = 1024 rows: needs >= 32");
  EXPECT_EQ(refusal(mm2, {100, 300, 7}, {32, 4}), "TILE_WIDTH 4 covers 128 of n = 300 columns: needs >= 10");
  // 32·TILE_WIDTH >= n is enough for the corrected kernel: a larger patch grid is clipped.
  EXPECT_TRUE(mm2.validate({1024, 1024, 1024}, {32, 32}, h100));
  EXPECT_TRUE(mm2.validate({64, 64, 64}, {32, 16}, h100));
  EXPECT_TRUE(mm2.validate({33, 65, 17}, {32, 4}, h100));
}

// MM2/MM4 address a thread's patch (and a pass 8 columns on) in int: a launch whose last patch would end
// within 8 of 2^31 is refused, not wrapped into another row's memory. Just below that line it runs.
TEST(MatmulValidation, PatchVariantsRefuseCoordinatesPastInt) {
  const variant& mm4 = named("PatchPerThread");
  const int int_max = std::numeric_limits<int>::max();
  EXPECT_EQ(refusal(mm4, {1, int_max - 3, 1}, {32, 8}),
            "the patches covering n = 2147483644 end at 2147483648, past 2^31 - 9: the kernel's int coordinates would wrap");
  EXPECT_EQ(refusal(mm4, {int_max - 3, 1, 1}, {32, 1}),
            "the patches covering m = 2147483644 end at 2147483648, past 2^31 - 9: the kernel's int coordinates would wrap");
  EXPECT_EQ(refusal(mm4, {1, 1, 1}, {32, int_max / 16}),
            "the patches covering m = 1 end at 4294967264, past 2^31 - 9: the kernel's int coordinates would wrap");
  EXPECT_TRUE(mm4.validate({1, int_max - 8 - 255, 1}, {32, 8}, h100));  // ends at 2^31 - 256: runs
  const variant& mm2 = named("SingleBlockPatch");
  EXPECT_TRUE(mm2.validate({1, 1, 1}, {32, int_max / 32}, h100));  // 32 patches end at 2^31 - 32: runs
  EXPECT_EQ(refusal(mm2, {1, 1, 1}, {32, int_max / 32 + 1}),
            "the patches covering m = 1 end at 2147483648, past 2^31 - 9: the kernel's int coordinates would wrap");
}

TEST(MatmulValidation, SingleBlockCoversAtMostOneBlock) {
  const variant& mm1 = named("SingleBlock");
  EXPECT_TRUE(mm1.validate({32, 32, 32}, {32, 1}, h100));
  EXPECT_TRUE(mm1.validate({3, 3, 3}, {4, 1}, h100));
  EXPECT_EQ(refusal(mm1, {64, 64, 64}, {32, 1}), "a block side of 32 covers 32 of n = 64 rows: needs a many-block variant (MM3)");
  EXPECT_EQ(refusal(mm1, {31, 31, 31}, {16, 1}), "a block side of 16 covers 16 of n = 31 rows: needs a many-block variant (MM3)");
  EXPECT_EQ(refusal(mm1, {4, 4, 4}, {4, 2}), "MM1 computes one output per thread: TILE_WIDTH must be 1");
  EXPECT_EQ(refusal(mm1, {4, 4, 4}, {64, 1}), "block 64x64 is not a valid block on this device (at most 1024 threads)");
}

TEST(MatmulValidation, ManyBlockVariantsAcceptAnyShape) {
  for (const char* name : {"OneOutputPerThread", "PatchPerThread", "SharedTiled", "CublasRowMajor"}) {
    const variant& v = named(name);
    for (const shape& s : testing::swept_shapes())
      for (const matmul_config& c : v.configs(s)) EXPECT_TRUE(v.validate(s, c, h100)) << name << ' ' << s.describe() << ' ' << c.describe();
  }
  EXPECT_EQ(refusal(named("OneOutputPerThread"), {0, 4, 4}, {16, 1}), "shape 0x4x4 (m x n x k): every dimension must be >= 1");
  EXPECT_EQ(refusal(named("SharedTiled"), {64, 64, 64}, {4, 4}),
            "TILE_WIDTH 4 is not built: the tiled kernel exists for TILE_WIDTH 8, 16 and 32");
  EXPECT_EQ(refusal(named("SharedTiled"), {64, 64, 64}, {8, 16}),
            "the tiled kernel's block is TILE_WIDTH x TILE_WIDTH: block 8 does not match TILE_WIDTH 16");
}

TEST(MatmulValidation, SeedKernelsAsWrittenTakeSquareShapesOnly) {
  EXPECT_EQ(refusal(named("MM3AsWritten"), {33, 65, 17}, {16, 1}), "the seed's kernels take one n: square shapes only");
}

// The report's grids are what the launchers compute for the report's (n, TILE_WIDTH, block).
TEST(MatmulReportCases, LaunchersReproduceTheReportsGrids) {
  for (const testing::report_case& r : testing::report_cases()) {
    const variant& v = named(r.variant);
    const shape s{r.n, r.n, r.n};
    const matmul_config c{r.block, r.tile_width};
    EXPECT_TRUE(v.validate(s, c, h100)) << r.name();
    EXPECT_EQ(testing::report_grid(v, s, c), r.grid) << r.name();
  }
}

TEST(MatmulRegistry, CoversTheCatalog) {
  std::set<std::string_view> ids, names;
  for (const variant& v : correct_variants()) {
    ids.insert(v.catalog_id);
    EXPECT_FALSE(v.is_known_bad());
  }
  for (const char* id : {"MM1", "MM2", "MM3", "MM4", "MMs", "MMc"}) EXPECT_TRUE(ids.count(id)) << id;
  for (const char* name : {"MM1AsWritten", "MM2AsWrittenTileTooSmall", "MM2AsWrittenTileTooLarge", "MM3AsWritten", "MM4AsWritten",
                           "TiledNoSecondSync", "TiledTileCountRoundsDown", "CublasAsWritten", "ReadsBTransposed"}) {
    const variant* v = find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_TRUE(v->is_known_bad());
  }
  for (const auto list : {correct_variants(), known_bad_variants()})
    for (const variant& v : list) EXPECT_TRUE(names.insert(v.name).second) << v.name;
}

// Only bugs that leave every value right are left to a sanitizer, each to the tool that sees it.
TEST(MatmulRegistry, OnlyValueInvisibleBugsAreLeftToASanitizer) {
  EXPECT_EQ(named("TiledNoSecondSync").detection, caught_by::racecheck);
  EXPECT_EQ(named("TiledReadsPastRowEnd").detection, caught_by::memcheck);
  for (const variant& v : known_bad_variants())
    if (v.name != "TiledNoSecondSync" && v.name != "TiledReadsPastRowEnd")
      EXPECT_EQ(v.detection, caught_by::value_checks) << v.name;
}

TEST(MatmulRegistry, KnownBadTileWidthsReallyDoNotFit) {
  for (const int n : {64, 100, 128, 256}) {
    for (const matmul_config& c : named("MM2AsWrittenTileTooSmall").configs({n, n, n})) EXPECT_LT(32 * c.tile_width, n);
    for (const matmul_config& c : named("MM2AsWrittenTileTooLarge").configs({n, n, n})) EXPECT_GT(32 * c.tile_width, n);
  }
}

TEST(MatmulCases, SweepCoversTheIssueShapes) {
  std::set<std::string> names, tiled_shapes, variant_shapes;
  for (const testing::matmul_case& c : testing::sweep(correct_variants())) {
    EXPECT_TRUE(names.insert(c.name()).second) << c.name();
    const std::string at = std::string(c.v->name) + 'M' + std::to_string(c.s.m) + 'N' + std::to_string(c.s.n) + 'K' + std::to_string(c.s.k);
    variant_shapes.insert(at);
    if (c.v->name == "SharedTiled") tiled_shapes.insert(at);
  }
  EXPECT_EQ(tiled_shapes.size(), testing::swept_shapes().size()) << "the tiled kernel runs at every shape";
  EXPECT_TRUE(variant_shapes.count("SingleBlockM32N32K32"));
  EXPECT_FALSE(variant_shapes.count("SingleBlockM64N64K64")) << "MM1 cannot cover 64x64 and must not be listed there";
  EXPECT_TRUE(variant_shapes.count("CublasRowMajorM4096N64K4096"));
  EXPECT_TRUE(names.count("SharedTiledM33N65K17B16TW16Real"));
}

// The printed parameter tells tools/runner the case's unit: the variant, and the variant's shapes
// past 2^30 multiply-adds apart (they take seconds each).
TEST(MatmulCases, UnitsSplitEachVariantsHeavyShapes) {
  const variant& tiled = named("SharedTiled");
  const testing::matmul_case small{&tiled, {33, 65, 17}, {16, 16}, testing::input_kind::real};
  const testing::matmul_case large{&tiled, {4096, 4096, 4096}, {16, 16}, testing::input_kind::integer};
  EXPECT_EQ(::testing::PrintToString(small).rfind("unit:SharedTiled cost:", 0), 0u) << ::testing::PrintToString(small);
  EXPECT_EQ(::testing::PrintToString(large).rfind("unit:SharedTiled.Large cost:", 0), 0u) << ::testing::PrintToString(large);
  EXPECT_GT(large.cost(), 1000 * small.cost());
}

// Issue 6: outer products, long k with a small C, tall and wide, seeded random shapes; every
// correct variant's swept configuration is one its launcher accepts (so a refusal on the GPU is a
// failure, not noise), and every case has at least one configuration.
TEST(MatmulCases, ShapesCoverEveryFamilyAndEveryConfigIsAccepted) {
  const std::vector<shape> shapes = testing::swept_shapes();
  const auto has = [&](auto predicate) { return std::any_of(shapes.begin(), shapes.end(), predicate); };
  EXPECT_TRUE(has([](const shape& s) { return s.k == 1 && s.m > 1 && s.n > 1; })) << "an outer product";
  EXPECT_TRUE(has([](const shape& s) { return s.k >= 16384 && s.m * s.n <= 64; })) << "long k, small C";
  EXPECT_TRUE(has([](const shape& s) { return s.m >= 64 * s.n; })) << "tall";
  EXPECT_TRUE(has([](const shape& s) { return s.n >= 64 * s.m; })) << "wide";
  EXPECT_TRUE(has([](const shape& s) { return s.m != s.n && s.n != s.k && s.m != s.k && s.k > 1; })) << "m, n, k all differ";
  for (const testing::matmul_case& c : testing::sweep(correct_variants()))
    EXPECT_TRUE(c.v->validate(c.s, c.config, h100)) << c.name() << ' ' << c.config.describe();
}

TEST(MatmulCases, LargeShapesSampleTheLowParallelismConfigs) {
  const variant& mm4 = named("PatchPerThread");
  const std::vector<matmul_config> at_4096 = testing::swept_configs(mm4, {4096, 4096, 4096});
  for (const matmul_config& c : at_4096) EXPECT_LE(c.tile_width, 16) << "TILE_WIDTH >= 32 runs at small shapes only";
  EXPECT_EQ(testing::swept_configs(mm4, {256, 256, 256}), mm4.configs({256, 256, 256})) << "small shapes sweep everything";
  const variant& mm2 = named("SingleBlockPatch");
  EXPECT_EQ(testing::swept_configs(mm2, {2048, 2048, 2048}).size(), 1u) << "MM2 keeps its one config at 2048";
  EXPECT_FALSE(testing::runs_input(mm2, {2048, 2048, 2048}, {32, 64}, testing::input_kind::integer));
  EXPECT_TRUE(testing::runs_input(mm2, {2048, 2048, 2048}, {32, 64}, testing::input_kind::wide_integer));
}

// Wide integers are exact in float but not representable in TF32 (or half): a product computed
// from TF32-rounded inputs differs from the exact one, so a TF32 kernel fails the exact compare.
// Small integers in [-8, 8] are representable, which is how CublasTf32 passed before.
TEST(MatmulCases, WideIntegersExposeTf32Rounding) {
  const auto to_tf32 = [](float x) {  // round to nearest even, keeping 10 explicit mantissa bits
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits += 0xFFFu + ((bits >> 13) & 1u);
    bits &= ~0x1FFFu;
    float y;
    std::memcpy(&y, &bits, sizeof y);
    return y;
  };
  const shape s{33, 65, 17};
  for (const auto kind : {testing::input_kind::wide_integer, testing::input_kind::integer}) {
    const auto input = testing::make_host_input(s, kind, 7);
    ASSERT_TRUE(input->exact);
    std::size_t representable = 0;
    std::vector<float> rounded_a(input->a.size());
    for (std::size_t i = 0; i < input->a.size(); ++i) {
      rounded_a[i] = to_tf32(input->a[i]);
      representable += rounded_a[i] == input->a[i];
    }
    const std::vector<double> rounded = reference::matmul(rounded_a, input->b, s.m, s.n, s.k);
    std::size_t differing = 0;
    for (std::size_t i = 0; i < rounded.size(); ++i) differing += rounded[i] != input->expected[i];
    if (kind == testing::input_kind::wide_integer) {
      EXPECT_EQ(representable, 0u) << "every wide A value needs 12 significant bits";
      EXPECT_GT(differing, rounded.size() / 2) << "the TF32 product differs almost everywhere";
    } else {
      EXPECT_EQ(representable, input->a.size());
      EXPECT_EQ(differing, 0u) << "small integers cannot tell TF32 from float";
    }
  }
}

// Every input the sweep draws is judged: exact, or small enough for the per-element bound.
TEST(MatmulCases, EveryInputAtEveryShapeHasACheck) {
  for (const shape& s : testing::swept_shapes()) {
    if (testing::multiply_adds(s) > 0x1p26) continue;  // the CPU reference's cost in CI
    for (const testing::input_kind kind : testing::inputs_for(s)) {
      const auto input = testing::make_host_input(s, kind, 3);
      EXPECT_TRUE(input->exact || !input->abs_expected.empty()) << s.describe() << ' ' << testing::name_of(kind);
    }
  }
  // Past 2^30 multiply-adds only exact inputs run (Freivalds compares exactly).
  for (const testing::input_kind kind : testing::inputs_for({4096, 4096, 4096}))
    EXPECT_TRUE(kind != testing::input_kind::real && kind != testing::input_kind::constants);
}

// ---- reference ----

TEST(MatmulReference, MatchesTheSerialLoopExactlyOnIntegers) {
  const int m = 70, n = 45, k = 130;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  fill_uniform_integers(a, 1, -8, 8);
  fill_uniform_integers(b, 2, -8, 8);
  reference::matmul_serial_ijk(a, b, c, m, n, k);
  const std::vector<double> ref = reference::matmul(a, b, m, n, k);
  for (int i = 0; i < m * n; ++i) ASSERT_EQ(ref[i], c[i]) << i;
  EXPECT_EQ(reference::matmul_row(a, b, n, k, 7), std::vector<double>(ref.begin() + 7 * n, ref.begin() + 8 * n));
  EXPECT_EQ(reference::matmul_element(a, b, n, k, 69, 44), ref[69 * n + 44]);
}

TEST(MatmulReference, NonSquareOperandsAreNotSwapped) {
  // A = [1 2 3], B = [1; 10; 100]: A·B = 321, B·A would be 3x3.
  const std::vector<float> a{1, 2, 3}, b{1, 10, 100};
  EXPECT_EQ(reference::matmul(a, b, 1, 1, 3), std::vector<double>{321});
}

// ---- Freivalds ----

struct freivalds_setup {
  int n = 48;
  std::vector<float> a, b, c;
  freivalds_setup() : a(n * n), b(n * n), c(n * n) {
    fill_uniform_integers(a, 3, -8, 8);
    fill_uniform_integers(b, 4, -8, 8);
    const std::vector<double> exact = reference::matmul(a, b, n, n, n);
    for (int i = 0; i < n * n; ++i) c[i] = static_cast<float>(exact[i]);
  }
};

TEST(Freivalds, AcceptsTheRightProduct) {
  const freivalds_setup f;
  EXPECT_TRUE(reference::freivalds(f.a, f.b, f.c, f.n, f.n, f.n, 4, 1).consistent);
}

TEST(Freivalds, AlwaysRejectsOneWrongElementOrANaN) {
  freivalds_setup f;
  f.c[17 * f.n + 5] += 1.0f;  // x_j is never 0, so d·x = x_5 ≠ 0: caught with probability 1
  for (std::uint64_t seed = 0; seed < 200; ++seed)
    ASSERT_FALSE(reference::freivalds(f.a, f.b, f.c, f.n, f.n, f.n, 1, seed).consistent) << seed;
  freivalds_setup g;
  g.c[3] = std::numeric_limits<float>::quiet_NaN();  // an unwritten (poisoned) element
  EXPECT_FALSE(reference::freivalds(g.a, g.b, g.c, g.n, g.n, g.n, 1, 9).consistent);
}

// One side drawn for (A, B) judges every C as freivalds() does, so the sweep can draw it once per input.
TEST(Freivalds, OneSideJudgesManyProductsAsTheWholeCheckDoes) {
  const freivalds_setup f;
  const reference::freivalds_side side = reference::freivalds_prepare(f.a, f.b, f.n, f.n, f.n, 3, 11);
  EXPECT_TRUE(reference::freivalds_check(side, f.c).consistent);
  for (const int wrong : {0, 17 * 48 + 5, 48 * 48 - 1}) {
    std::vector<float> c = f.c;
    c[wrong] -= 2.0f;
    const reference::freivalds_outcome split = reference::freivalds_check(side, c);
    const reference::freivalds_outcome whole = reference::freivalds(f.a, f.b, c, f.n, f.n, f.n, 3, 11);
    ASSERT_FALSE(split.consistent) << wrong;
    EXPECT_EQ(split.failing_row, wrong / f.n);
    EXPECT_EQ(split.failing_row, whole.failing_row);
    EXPECT_EQ(split.failing_vector, whole.failing_vector);
    EXPECT_EQ(split.expected, whole.expected);
    EXPECT_EQ(split.actual, whole.actual);
  }
}

// The stated bound, measured: an error row d = (+1 at j1, −1 at j2) escapes exactly when
// x_j1 = x_j2, which happens with probability 1/|S| = 1/(2·range). With range 4 that is 1/8: over
// 8000 single-vector trials expect 1000 misses (binomial sd ≈ 30); accept 850..1150.
TEST(Freivalds, MissesAWrongProductAtTheStatedProbability) {
  freivalds_setup f;
  f.c[10 * f.n + 2] += 1.0f;
  f.c[10 * f.n + 9] -= 1.0f;
  int missed = 0;
  for (std::uint64_t seed = 0; seed < 8000; ++seed) missed += reference::freivalds(f.a, f.b, f.c, f.n, f.n, f.n, 1, seed, 4).consistent;
  EXPECT_GT(missed, 850);
  EXPECT_LT(missed, 1150);
  // Two vectors square the miss probability: expect ~125 of 8000.
  int missed_twice = 0;
  for (std::uint64_t seed = 0; seed < 8000; ++seed)
    missed_twice += reference::freivalds(f.a, f.b, f.c, f.n, f.n, f.n, 2, seed, 4).consistent;
  EXPECT_LT(missed_twice, 200);
}

}  // namespace
}  // namespace kc::matmul
