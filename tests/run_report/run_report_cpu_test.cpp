// kconform_run_report (tools/run_report): report.html from the recorded run (recorded_run/, a small
// GPU run's folder in the real formats), through the command line as run_gpu_suite.sh calls it.
// Each check has its twin that must fail it: the same page of a passing run says PASSED, an empty
// folder says what is missing, a name that needs escaping never appears raw.
#include "tests/run_report/recorded_run_copy.hpp"
#include "tools/perf_report/html_text.hpp"
#include "tools/run_report/run_page.hpp"
#include "tools/run_report/run_report_cli.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace kc::run_report {
namespace {

using perf_report::html_escape;
using testing::file_text;
using testing::recorded_run_copy;

constexpr const char* failed_case = "Matmul/Conformance.MatchesReference/SharedTiledM3N5K2B16TW16Integer";
constexpr const char* replay =
    "KCONFORM_SEED=20261122 /work/main/build/gpu/tests/matmul_gpu_tests "
    "--gtest_filter='Matmul/Conformance.MatchesReference/SharedTiledM3N5K2B16TW16Integer'";
constexpr const char* dump = "Matmul_Conformance_MatchesReference_SharedTiledM3N5K2B16TW16Integer_SharedTiledM3N5K2B16TW16Integer.txt";

std::string written_page(const std::filesystem::path& dir) {
  std::ostringstream out, err;
  EXPECT_EQ(run_run_report({"--report-dir", dir.string()}, out, err), exit_written) << err.str();
  EXPECT_EQ(out.str(), (dir / "report.html").string() + "\n");
  return file_text(dir / "report.html");
}

TEST(RunReportPage, SaysFailedWithTheReasons) {
  const recorded_run_copy run;
  const std::string page = written_page(run.path());
  EXPECT_NE(page.find("<div id=\"verdict\" class=\"run-verdict failed\">FAILED</div>"), std::string::npos);
  EXPECT_EQ(page.find("PASSED</div>"), std::string::npos);
  EXPECT_NE(page.find("1 CTest test failed (junit.xml)"), std::string::npos);
  EXPECT_NE(page.find("1 case failed (units/)"), std::string::npos);
  EXPECT_NE(page.find("<dd id=\"gpu\">NVIDIA H100 80GB HBM3</dd>"), std::string::npos);
  EXPECT_NE(page.find("CTest tests: 7 passed, 1 failed, 1 skipped"), std::string::npos);
  EXPECT_NE(page.find("cases: 10 passed, 1 failed, 1 skipped (4 units, 4 processes)"), std::string::npos);
}

TEST(RunReportPage, NamesTheFailedCaseItsReplayLineAndItsDataDump) {
  const recorded_run_copy run;
  const std::string page = written_page(run.path());
  EXPECT_NE(page.find("<h4><code>" + html_escape(failed_case) + "</code>"), std::string::npos);
  // The whole command, escaped, without the parenthesis gtest closes its message with.
  EXPECT_NE(page.find("<code class=\"replay\">" + html_escape(replay) + "</code>"), std::string::npos);
  EXPECT_NE(page.find("<a class=\"dump\" href=\"failures/" + std::string(dump) + "\">"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(run.path() / "failures" / dump)) << "the link must lead to the copy's dump";
  // The message itself is on the page, and the passing cases are not listed as failures.
  EXPECT_NE(page.find("C[0][4]: expected 5, got 0"), std::string::npos);
  EXPECT_EQ(page.find("<h4><code>Matmul/Conformance.MatchesReference/SharedTiledM1N1K1B16TW16Integer"), std::string::npos);
  // The failed CTest test has its failed case, so it is not listed again as a failure without one.
  EXPECT_EQ(page.find("CTest tests that failed without a failed case recorded"), std::string::npos);
}

TEST(RunReportPage, ShowsEachFamilyAndTheKnownBadCatches) {
  const recorded_run_copy run;
  const std::string page = written_page(run.path());
  for (const char* family : {"access", "matmul", "reduction"})
    EXPECT_NE(page.find(std::string(">") + family + " <span class=\"sub\">"), std::string::npos) << family;
  EXPECT_NE(page.find("<td>2 of 2</td>"), std::string::npos) << "matmul's known-bad rows, both caught";
  EXPECT_NE(page.find("<code>MM1AsWritten</code>"), std::string::npos);
  EXPECT_NE(page.find("caught by 1 of 4 cases run (0 refused, not counted)"), std::string::npos);
  EXPECT_NE(page.find("M33N33K33B32TW1 Integer: C[0][32]: expected 12, got 0"), std::string::npos);
  EXPECT_NE(page.find("<code>TiledTileCountRoundsDown</code>"), std::string::npos);
  // The slowest unit first.
  const std::size_t slowest = page.find("id=\"slowest\"");
  ASSERT_NE(slowest, std::string::npos);
  EXPECT_LT(page.find("matmul.known_bad.KnownBadMatmul", slowest), page.find("access.conformance.FullCoalesced", slowest));
}

TEST(RunReportPage, DrawsThePerfPointsAndTheBenchmarkTable) {
  const recorded_run_copy run;
  const std::string page = written_page(run.path());
  const std::size_t perf = page.find("<section id=\"perf\">");
  ASSERT_NE(perf, std::string::npos);
  EXPECT_NE(page.find("<svg class=\"chart\"", perf), std::string::npos) << "perf_report's chart";
  EXPECT_NE(page.find(html_escape("reduction/WarpShuffle/n=2^26/block=256"), perf), std::string::npos);
  EXPECT_NE(page.find("AMBIGUOUS +0.4%", perf), std::string::npos);
  EXPECT_NE(page.find("SharedTiled n=2048 block=16x16,tw=16", perf), std::string::npos);
  EXPECT_EQ(page.find("No perf rows recorded"), std::string::npos);

  const std::size_t benchmarks = page.find("<section id=\"benchmarks\">");
  ASSERT_NE(benchmarks, std::string::npos);
  EXPECT_NE(page.find("<h3>reduction_benchmark <span class=\"sub\">3 rows</span></h3>", benchmarks), std::string::npos);
  EXPECT_NE(page.find("<th>share_of_copy</th>", benchmarks), std::string::npos);
  EXPECT_NE(page.find("<td class=\"text\">WarpShuffle</td>", benchmarks), std::string::npos);
  EXPECT_NE(page.find("<td>2672.6</td>", benchmarks), std::string::npos);
  EXPECT_NE(page.find("<a href=\"reduction_benchmark.md\">", benchmarks), std::string::npos);
}

TEST(RunReportPage, ReferencesNothingOutsideThePage) {
  const recorded_run_copy run;
  const std::string page = written_page(run.path());
  // The only http(s) text allowed is the SVG namespace, a name that no browser fetches.
  const std::string svg_namespace = "xmlns=\"http://www.w3.org/2000/svg\"";
  std::string rest = page;
  for (std::size_t at; (at = rest.find(svg_namespace)) != std::string::npos;) rest.erase(at, svg_namespace.size());
  EXPECT_EQ(rest.find("http://"), std::string::npos);
  EXPECT_EQ(rest.find("https://"), std::string::npos);
  for (const char* fetch : {"<script", "<link", "<img", "<iframe", "@import", "url(", " src=", "@font-face"})
    EXPECT_EQ(page.find(fetch), std::string::npos) << fetch;
  // Links stay inside the report folder: in-page anchors and relative paths to its files.
  const std::regex href("href=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), href); it != std::sregex_iterator(); ++it) {
    const std::string target = (*it)[1].str();
    EXPECT_TRUE(target.starts_with("#") || (!target.starts_with("/") && target.find(':') == std::string::npos &&
                                            target.find("..") == std::string::npos))
        << target;
    if (!target.starts_with("#")) {
      EXPECT_TRUE(std::filesystem::exists(run.path() / target)) << target;
    }
  }
}

// A run of one passed unit of one passed case.
run_folder one_passed_unit(const std::string& name, const std::string& family, double seconds, unit_case only) {
  run_folder run;
  run.ctest = std::vector<ctest_test>{{name, outcome::passed, seconds, "", ""}};
  unit_run unit;
  unit.name = name;
  unit.family = family;
  unit.seconds = seconds;
  unit.cases.push_back(std::move(only));
  run.units.push_back(unit);
  return run;
}

TEST(RunReportPage, APassingRunSaysPassed) {
  // The twin of the FAILED page: the same run with the failed case and its CTest failure removed.
  const run_folder run = one_passed_unit(
      "reduction.conformance.SequentialAddressing", "reduction", 0.9,
      {"Reduction/OnePass.MatchesReference/SequentialAddressingN1B256Integer", outcome::passed, 0.01, "", {}});
  const std::string page = run_page_html(run, {});
  EXPECT_NE(page.find("<div id=\"verdict\" class=\"run-verdict passed\">PASSED</div>"), std::string::npos);
  EXPECT_NE(page.find("No case failed."), std::string::npos);
}

TEST(RunReportPage, SaysWhereTheCaseSecondsWent) {
  // Each case's <kind>_seconds (fixtures/time_spent.hpp) added up over the run and per unit, and the
  // seconds opening the GPU (the runner's device_open_seconds); what is left of the case time is
  // "other". A run whose cases recorded no kind shows no split at all.
  run_folder run = one_passed_unit(
      "matmul.huge.AcrossIndex2To31", "matmul", 12.0,
      {"MatmulHuge/AcrossIndex2To31.MatchesReference/SharedTiled", outcome::passed, 10.0, "",
       {{"input_seconds", "1.5"}, {"gpu_wait_seconds", "2"}, {"download_seconds", "4"}, {"guards_seconds", "0.5"},
        {"device_open_seconds", "0.75"}}});
  const std::string page = run_page_html(run, {});
  for (const char* part : {"inputs and references 1.50 s", "waiting for the GPU 2.00 s", "downloads 4.00 s",
                           "guard zones 0.50 s", "opening the GPU (CUDA start-ups) 0.75 s",
                           "other host work and synchronisation 1.25 s"})
    EXPECT_NE(page.find(part), std::string::npos) << part;
  EXPECT_NE(page.find("<th>GPU wait</th>"), std::string::npos);
  run.units[0].cases[0].properties.clear();
  EXPECT_EQ(run_page_html(run, {}).find("time-split"), std::string::npos) << "a split from nothing recorded";
}

TEST(RunReportPage, FamiliesAreKernelFamiliesAndTheRestStandsApart) {
  // Issue 35: the families table mixed kernel families with the suite's fixtures, the sanitizer's
  // units and the polybench umbrella. A sanitizer unit now sits with the family it checks; fixtures
  // and an umbrella over several families are listed under their own heading.
  run_folder run;
  run.ctest = std::vector<ctest_test>{};
  for (const char* name : {"reduction.conformance.SequentialAddressing", "sanitizer.racecheck.reduction.catches",
                           "polybench_atax.conformance.AtaxTwoKernels", "fixtures.conformance.GuardZones",
                           "polybench.perf.AgainstBaseline"}) {
    unit_run unit;
    unit.name = name;
    unit.family = family_of_unit(name);
    unit.cases.push_back({std::string(name) + "/Case", outcome::passed, 0.1, "", {}});
    run.units.push_back(unit);
    run.ctest->push_back({name, outcome::passed, 0.1, "", ""});
  }
  const std::string page = run_page_html(run, {});
  const std::size_t across = page.find("id=\"across-families\"");
  ASSERT_NE(across, std::string::npos) << "no heading for what is not a kernel family";
  for (const char* family : {"reduction", "polybench_atax"})
    EXPECT_LT(page.find(std::string(">") + family + "</a></td>"), across) << family << " belongs in the families table";
  for (const char* other : {"fixtures", "polybench"})
    EXPECT_GT(page.find(std::string(">") + other + "</a></td>"), across) << other << " is not a kernel family";
  EXPECT_EQ(page.find(">sanitizer</a></td>"), std::string::npos) << "the sanitizer is a tool, not a family";
  // reduction's own section lists its sanitizer unit.
  const std::size_t section = page.find("<h3>reduction <span");
  ASSERT_NE(section, std::string::npos);
  EXPECT_LT(page.find("sanitizer.racecheck.reduction.catches", section), page.find("</section>", section));
}

TEST(RunFolder, AUnitsFamilyIsTheKernelFamilyItTests) {
  EXPECT_EQ(family_of_unit("matmul.conformance.SharedTiled"), "matmul");
  EXPECT_EQ(family_of_unit("sanitizer.racecheck.polybench_conv2d.catches"), "polybench_conv2d");
  EXPECT_EQ(family_of_unit("sanitizer.memcheck.access"), "access");
  EXPECT_EQ(family_of_unit("reduction"), "reduction");
  const std::vector<std::string> all{"polybench", "polybench_atax", "fixtures", "matmul"};
  EXPECT_TRUE(is_across_families("polybench", all));
  EXPECT_TRUE(is_across_families("fixtures", all));
  EXPECT_FALSE(is_across_families("polybench_atax", all));
  EXPECT_FALSE(is_across_families("matmul", all));
  EXPECT_FALSE(is_across_families("polybench", {"polybench"})) << "an umbrella needs families under it";
}

TEST(RunReportPage, AnEmptyFolderSaysWhatIsMissing) {
  const recorded_run_copy run(false);
  const std::string page = written_page(run.path());
  EXPECT_NE(page.find("run-verdict failed\">FAILED"), std::string::npos) << "a run that recorded nothing is no pass";
  EXPECT_NE(page.find("no junit.xml: the tests did not run"), std::string::npos);
  EXPECT_NE(page.find("No unit recorded its cases"), std::string::npos);
  EXPECT_NE(page.find("No perf rows recorded"), std::string::npos);
  EXPECT_NE(page.find("No benchmark tables recorded"), std::string::npos);
  EXPECT_NE(page.find("<dd id=\"gpu\">not recorded</dd>"), std::string::npos);
}

TEST(RunReportPage, TheSmallestFailingCaseComesFirst) {
  run_folder run;
  run.ctest = std::vector<ctest_test>{{"grade.odd_sizes", outcome::failed, 2.0, "Failed", ""}};
  unit_run unit;
  unit.name = "grade.odd_sizes";
  unit.family = "grade";
  unit.cases.push_back({"First/A.B/N1000", outcome::failed, 0.1, "wrong at 999", {{"work", "1000"}}});
  unit.cases.push_back({"First/A.B/N33", outcome::failed, 0.1, "wrong at 32", {{"work", "33"}}});
  unit.cases.push_back({"First/A.B/N1", outcome::passed, 0.1, "", {{"work", "1"}}});
  run.units.push_back(unit);
  const std::string page = run_page_html(run, {});
  const std::size_t smallest = page.find("<h4><code>First/A.B/N33</code> <span class=\"badge\">smallest failing case</span>");
  ASSERT_NE(smallest, std::string::npos);
  EXPECT_LT(smallest, page.find("<h4><code>First/A.B/N1000</code></h4>"));
  EXPECT_EQ(page.find("<h4><code>First/A.B/N1</code>"), std::string::npos) << "a passed case is no failure";
}

TEST(RunReportPage, ACTestFailureWithoutACaseShowsItsOutput) {
  run_folder run;
  run.ctest = std::vector<ctest_test>{{"matmul.conformance.PatchPerThread", outcome::failed, 300.0, "Timeout", "started\nstill running"}};
  const std::string page = run_page_html(run, {});
  EXPECT_NE(page.find("CTest tests that failed without a failed case recorded"), std::string::npos);
  EXPECT_NE(page.find("<code>matmul.conformance.PatchPerThread</code> <span class=\"sub\">Timeout, 300 s</span>"),
            std::string::npos);
  EXPECT_NE(page.find("started\nstill running"), std::string::npos);
}

TEST(RunReportPage, EscapesWhatTheRunRecorded) {
  run_folder run;
  run.gpu_name = "GPU <b>&";
  unit_run unit;
  unit.name = "reduction.conformance.X";
  unit.family = "reduction";
  unit.cases.push_back({"A/B.C/<script>alert(1)</script>", outcome::failed, 0.1, "got <NaN> & \"worse\"\n  replay: a 'b' <c>", {}});
  run.units.push_back(unit);
  const std::string page = run_page_html(run, {});
  EXPECT_EQ(page.find("<script>"), std::string::npos);
  EXPECT_EQ(page.find("<NaN>"), std::string::npos);
  EXPECT_EQ(page.find("GPU <b>"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("<code class=\"replay\">a &#39;b&#39; &lt;c&gt;</code>"), std::string::npos);
}

TEST(RunReportCli, RefusesBadArgumentsAndAMissingFolder) {
  std::ostringstream out, err;
  EXPECT_EQ(run_run_report({}, out, err), exit_bad_arguments);
  EXPECT_EQ(run_run_report({"--report-dir"}, out, err), exit_bad_arguments);
  EXPECT_EQ(run_run_report({"--report-dir", "x", "--colour", "red"}, out, err), exit_bad_arguments);
  EXPECT_EQ(run_run_report({"--report-dir", "/nonexistent/kconform-run"}, out, err), exit_no_report_dir);
  EXPECT_TRUE(out.str().empty());
}

TEST(RunReportCli, WritesWhereOutSays) {
  const recorded_run_copy run;
  std::ostringstream out, err;
  const std::filesystem::path page = run.path() / "elsewhere.html";
  ASSERT_EQ(run_run_report({"--report-dir", run.path().string(), "--out", page.string(), "--title", "nightly <H100>"}, out, err),
            exit_written)
      << err.str();
  EXPECT_FALSE(std::filesystem::exists(run.path() / "report.html"));
  EXPECT_NE(file_text(page).find("<h1>nightly &lt;H100&gt;</h1>"), std::string::npos);
}

}  // namespace
}  // namespace kc::run_report
