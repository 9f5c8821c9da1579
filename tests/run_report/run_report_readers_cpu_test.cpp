// The readers behind report.html (tools/run_report): JUnit as CTest and the runner write it, the
// benchmarks' CSV, summary.md's header, nvidia-smi's table, a failure message's replay and data
// lines, and the verdict. Each reader also gets the damaged or absent input a real run can leave.
#include "tests/run_report/recorded_run_copy.hpp"
#include "tools/run_report/csv_table.hpp"
#include "tools/run_report/failure_details.hpp"
#include "tools/run_report/junit_reader.hpp"
#include "tools/run_report/run_folder.hpp"
#include "tools/run_report/run_verdict.hpp"

#include <gtest/gtest.h>

namespace kc::run_report {
namespace {

using testing::file_text;

TEST(RunReportJunit, ReadsCTestsJunitWithItsStatuses) {
  const std::vector<ctest_test> tests = ctest_tests_of(parse_junit(file_text(std::filesystem::path(KC_RECORDED_RUN) / "junit.xml")));
  ASSERT_EQ(tests.size(), 9u);
  EXPECT_EQ(tests[1].name, "matmul.conformance.SharedTiled");
  EXPECT_EQ(tests[1].result, outcome::failed);
  EXPECT_EQ(tests[1].message, "Failed");
  EXPECT_NE(tests[1].output.find("--gtest_filter='Matmul/"), std::string::npos) << "entities decoded";
  EXPECT_EQ(tests[0].result, outcome::passed);
  EXPECT_EQ(tests[7].result, outcome::skipped);
  EXPECT_EQ(tests[7].message, "SKIP_RETURN_CODE=77");
}

TEST(RunReportJunit, ReadsARunnerUnitWithPropertiesAndTheWholeMessage) {
  const std::filesystem::path file = std::filesystem::path(KC_RECORDED_RUN) / "units" / "matmul.known_bad.KnownBadMatmul.xml";
  const unit_run unit = unit_of(parse_junit(file_text(file)), "matmul.known_bad.KnownBadMatmul");
  EXPECT_EQ(unit.name, "matmul.known_bad.KnownBadMatmul");
  EXPECT_EQ(unit.family, "matmul");
  EXPECT_EQ(unit.processes, 1);
  EXPECT_DOUBLE_EQ(unit.seconds, 6.27);
  ASSERT_EQ(unit.cases.size(), 2u);
  EXPECT_EQ(unit.cases[0].name, "Matmul/KnownBadMatmul.IsRejectedByTheSuite/MM1AsWritten");
  EXPECT_EQ(unit.cases[0].result, outcome::passed);
  EXPECT_EQ(unit.cases[0].property("bug"), "no bounds check: right only for n = 32");
  EXPECT_EQ(unit.cases[0].property("verdict"), "caught by 1 of 4 cases run (0 refused, not counted)");

  const unit_run failed = unit_of(
      parse_junit(file_text(std::filesystem::path(KC_RECORDED_RUN) / "units" / "matmul.conformance.SharedTiled.xml")), "x");
  ASSERT_EQ(failed.cases.size(), 4u);
  EXPECT_EQ(failed.count(outcome::failed), 1u);
  EXPECT_NE(failed.cases[1].message.find("\n  replay: "), std::string::npos) << "the <failure> text, not its first line";
}

TEST(RunReportJunit, KeepsWhatWasCompleteInAFileCutShort) {
  const std::string text =
      "<testsuites><testsuite name=\"u\" time=\"1.5\"><testcase classname=\"S\" name=\"T/a\" status=\"passed\" time=\"0.1\"/>"
      "<testcase classname=\"S\" name=\"T/b\" status=\"failed\"><failure message=\"m\"><![CDATA[x < y & z]]> &#955;&#x3bb;"
      "</failure></testcase><testcase classname=\"S\" name=\"T/c\" sta";
  const std::vector<junit_suite> suites = parse_junit(text);
  ASSERT_EQ(suites.size(), 1u);
  ASSERT_EQ(suites[0].cases.size(), 2u);
  EXPECT_EQ(suites[0].cases[1].text, "x < y & z \u03bb\u03bb");
  const unit_run unit = unit_of(suites, "u");
  EXPECT_EQ(unit.cases[1].result, outcome::failed);
  EXPECT_TRUE(parse_junit("").empty());
  EXPECT_TRUE(parse_junit("not xml at all").empty());
}

TEST(RunReportJunit, AnUnknownCaseStatusIsNoPass) {
  const unit_run unit = unit_of(parse_junit("<testsuite name=\"u\"><testcase classname=\"S\" name=\"T\" status=\"hung\"/></testsuite>"), "u");
  ASSERT_EQ(unit.cases.size(), 1u);
  EXPECT_EQ(unit.cases[0].result, outcome::failed);
}

TEST(RunReportFailureDetails, FindsTheReplayAndDataLines) {
  const std::string message =
      "file.hpp:38: Value of: expect_passed(result)\n  Actual: false (C[0][4]: expected 5, got 0 (first of 3)\n"
      "  replay: KCONFORM_SEED=7 tests/x --gtest_filter='A/B.C/D'\n  data: /r/failures/A_B_C_D.txt)\nExpected: true";
  EXPECT_EQ(replay_line(message), "KCONFORM_SEED=7 tests/x --gtest_filter='A/B.C/D'");
  EXPECT_EQ(data_dump_path(message), "/r/failures/A_B_C_D.txt") << "gtest's closing parenthesis is not the path's";
  // The replay line last: gtest's parenthesis closes it instead.
  EXPECT_EQ(replay_line("Actual: false (wrong\n  replay: KCONFORM_SEED=7 tests/x --gtest_filter='A/B.C/D')"),
            "KCONFORM_SEED=7 tests/x --gtest_filter='A/B.C/D'");
  EXPECT_EQ(replay_line("no such line"), "");
  EXPECT_EQ(data_dump_path("  data: no data dump (cannot write /r/failures/x.txt)"), "");

  unit_case c{"A/B.C/D", outcome::failed, 0, message, {}};
  EXPECT_EQ(dump_file_of(c, {"A_B_C_D.txt"}), "A_B_C_D.txt");
  EXPECT_EQ(dump_file_of(c, {"other.txt"}), "") << "no link to a dump the folder does not have";
}

TEST(RunReportFailureDetails, TheSmallestIsTheLeastRecordedWork) {
  const unit_case big{"a", outcome::failed, 0, "", {{"work", "1000"}}};
  const unit_case small{"b", outcome::failed, 0, "", {{"work", "33"}}};
  const unit_case tie{"c", outcome::failed, 0, "", {{"work", "33"}}};
  const unit_case none{"d", outcome::failed, 0, "", {{"work", "many"}}};
  EXPECT_EQ(smallest_failure({&big, &small, &tie, &none}), 1u);
  EXPECT_EQ(smallest_failure({&none}), std::nullopt);
  EXPECT_EQ(smallest_failure({}), std::nullopt);
}

TEST(RunReportFolderFiles, ReadsTheCsvSummaryAndGpuName) {
  const csv_table table = parse_csv("gpu,variant,n\n\"NVIDIA H100, \"\"SXM\"\"\",A,1\r\nX,B\n\n");
  ASSERT_EQ(table.header, (std::vector<std::string>{"gpu", "variant", "n"}));
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0][0], "NVIDIA H100, \"SXM\"");
  EXPECT_EQ(table.rows[0][2], "1");
  EXPECT_EQ(table.rows[1].size(), 2u) << "a row cut short keeps what it has";

  const summary_facts facts = read_summary(file_text(std::filesystem::path(KC_RECORDED_RUN) / "summary.md"));
  EXPECT_EQ(facts.verdict, "FAILED: 1 CTest unit(s) failed or did not run");
  EXPECT_EQ(facts.item("GPU"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(facts.item("commit"), "c1b400c");

  EXPECT_EQ(gpu_name_from_nvidia_smi(file_text(std::filesystem::path(KC_RECORDED_RUN) / "nvidia-smi.txt")),
            "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpu_name_from_nvidia_smi("nvidia-smi failed: is there a GPU?"), "");
}

TEST(RunReportFolderFiles, ReadsTheRecordedRun) {
  const run_folder run = read_run_folder(KC_RECORDED_RUN);
  ASSERT_TRUE(run.ctest.has_value());
  EXPECT_EQ(run.ctest->size(), 9u);
  EXPECT_EQ(run.units.size(), 4u);
  EXPECT_EQ(run.gpu_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(run.perf.points.size(), 2u);
  EXPECT_TRUE(run.perf.malformed.empty());
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_EQ(run.benchmarks[0].name, "reduction_benchmark");
  EXPECT_EQ(run.benchmarks[0].markdown_file, "reduction_benchmark.md");
  EXPECT_EQ(run.benchmarks[0].table.rows.size(), 3u);
  EXPECT_EQ(run.failure_dumps.size(), 1u);
  EXPECT_FALSE(run.has_perf_html);
  EXPECT_TRUE(run.problems.empty()) << run.problems.front();
}

TEST(RunReportVerdict, PassedNeedsEvidenceAndNoFailure) {
  run_folder run;
  EXPECT_FALSE(verdict_of(run).passed) << "no junit.xml";
  run.ctest = std::vector<ctest_test>{};
  EXPECT_FALSE(verdict_of(run).passed) << "no test ran";
  run.ctest->push_back({"a", outcome::passed, 1, "", ""});
  run.ctest->push_back({"b", outcome::skipped, 1, "", ""});
  EXPECT_TRUE(verdict_of(run).passed);
  EXPECT_TRUE(verdict_of(run).reasons.empty());

  run_folder failed_case = run;
  failed_case.units.push_back({"u", "f", 1, 1, {{"c", outcome::failed, 0, "", {}}}});
  EXPECT_FALSE(verdict_of(failed_case).passed);
  run_folder failed_test = run;
  failed_test.ctest->push_back({"c", outcome::failed, 1, "Failed", ""});
  EXPECT_FALSE(verdict_of(failed_test).passed);
  run_folder broken_build = run;
  broken_build.summary.verdict = "FAILED: the build broke (build.log)";
  ASSERT_FALSE(verdict_of(broken_build).passed);
  EXPECT_EQ(verdict_of(broken_build).reasons.front(), "summary.md: the build broke (build.log)");
}

}  // namespace
}  // namespace kc::run_report
