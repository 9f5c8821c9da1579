// kconform_grade_report (tools/grade_report) on fake grading runs: each test writes a run folder as
// scripts/grade.sh and the runner would (build.json, units/*.json), grades it, and checks the numbers
// and words a student or instructor would read. Every check compares a computed value with one worked
// out by hand, so a wrong rule fails it.
#include "fixtures/json_text.hpp"
#include "tools/grade_report/class_summary.hpp"
#include "tools/grade_report/grade_cli.hpp"
#include "tools/grade_report/gradescope_results.hpp"
#include "tools/grade_report/report_text.hpp"
#include "tools/grade_report/rubric.hpp"
#include "tools/grade_report/run_grade.hpp"
#include "tools/grade_report/run_inputs.hpp"
#include "tools/grade_report/seed_check.hpp"
#include "tools/grade_report/student_report.hpp"
#include "tools/grade_report/verdict_kind.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kc::grade_report {
namespace {

namespace fs = std::filesystem;

struct fake_case {
  std::string name;
  std::string status = "passed";
  std::string group = "small_sizes";  // "" records no group property
  std::string work = "1000";
  std::string message;
  json::object extra;  // more properties (the performance case's ratio ...)
};

fake_case passed(const std::string& name, const std::string& group) { return {name, "passed", group}; }
fake_case failed(const std::string& name, const std::string& group, const std::string& message,
                 const std::string& work = "1000") {
  return {name, "failed", group, work, message};
}
fake_case performance(const std::string& ratio, const std::string& status = "passed", const std::string& message = "") {
  fake_case c{"Grade/Performance.Timed/N16777216", status, "performance", "16777216", message};
  c.extra = {{"ratio", ratio}, {"submission_ms", "0.21"}, {"reference_ms", "0.2"},
             {"reference_variant", "CubDeviceReduce"}, {"size", "n = 2^24"}};
  return c;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json::value parsed(const std::string& text) {
  std::string error;
  std::optional<json::value> v = json::parse(text, &error);
  EXPECT_TRUE(v) << error << "\n" << text;
  return v ? *v : json::value();
}

class GradeReport : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "grade_report_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    run_dir_ = root_ / "run";
    fs::create_directories(run_dir_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void build(const std::string& status, const std::string& log = "", json::array libraries = {},
             json::array symbols = {}) {
    write(run_dir_ / "build.json",
          json::dump(json::object{{"status", status},
                                  {"log", log},
                                  {"libraries", std::move(libraries)},
                                  {"suite_symbols", std::move(symbols)},
                                  {"traits", json::object{{"block_sizes", "32..1024"}}}}));
  }

  void unit(const std::string& name, const std::vector<fake_case>& cases, double seconds = 1.5) {
    json::array items;
    for (const fake_case& c : cases) {
      json::object properties;
      if (!c.group.empty()) properties.emplace_back("group", c.group);
      properties.emplace_back("case", "description of " + c.name);
      properties.emplace_back("work", c.work);
      for (const json::member& m : c.extra) properties.push_back(m);
      items.push_back(json::object{{"name", c.name},
                                   {"status", c.status},
                                   {"seconds", 0.01},
                                   {"attempt", 1},
                                   {"message", c.message},
                                   {"properties", std::move(properties)}});
    }
    write(run_dir_ / "units" / (name + ".json"),
          json::dump(json::object{{"unit", name}, {"processes", 1}, {"seconds", seconds}, {"cases", std::move(items)}}));
  }

  // Every default group fully passing (performance at ratio 1.0).
  void all_passing() {
    build("ok");
    unit("grade.small_sizes", {passed("S/A.B/N32", "small_sizes"), passed("S/A.B/N64", "small_sizes")});
    unit("grade.odd_sizes", {passed("S/A.B/N33", "odd_sizes")});
    unit("grade.large_sizes", {passed("S/A.B/N1048577", "large_sizes")});
    unit("grade.configs", {passed("S/A.B/N1025B64", "configs")});
    unit("grade.edge_inputs", {passed("S/A.B/N1025Ones", "edge_inputs")});
    unit("grade.sanitizer.racecheck", {passed("S/A.B/N1025B256", "small_sizes")});
    unit("grade.performance", {performance("1.0")});
  }

  run_grade grade(const rubric& rules = default_rubric()) { return grade_run(read_run_dir(run_dir_), rules); }

  // Runs `kconform_grade_report student` on the run folder; returns its exit status.
  int grade_cli(const std::string& rubric_json, const std::string& student = "Ada", std::uint64_t seed = 42) {
    write(root_ / "rubric.json", rubric_json);
    std::ostringstream out, err;
    const int status = run_grade_report({"student", "--run-dir", run_dir_.string(), "--rubric",
                                         (root_ / "rubric.json").string(), "--family", "reduction", "--student",
                                         student, "--submission", "subs/ada.cu", "--seed", std::to_string(seed),
                                         "--out", out_dir().string()},
                                        out, err);
    err_ = err.str();
    return status;
  }
  fs::path out_dir() const { return root_ / "out"; }
  json::value results() const { return parsed(read(out_dir() / "results.json")); }

  static const json::value* test_named(const json::value& results, const std::string& name) {
    for (const json::value& t : *results.find("tests")->as_array())
      if (*t.find("name")->as_string() == name) return &t;
    return nullptr;
  }
  static const group_grade& group(const run_grade& g, const std::string& name) {
    for (const group_grade& x : g.groups)
      if (x.name == name) return x;
    throw std::runtime_error("no group " + name);
  }

  fs::path root_, run_dir_;
  std::string err_;
};

rubric rubric_of(const std::string& text) {
  std::string error;
  std::optional<rubric> r = parse_rubric(text, &error);
  EXPECT_TRUE(r) << error;
  return r ? *r : rubric{};
}

TEST_F(GradeReport, CompileErrorScoresZeroAndTheBuildTestCarriesTheLog) {
  build("compile_error", "ada.cu(12): error: expected a \";\"");
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  const json::value r = results();
  EXPECT_EQ(*r.find("score")->as_number(), 0.0);
  const json::value& first = r.find("tests")->as_array()->front();
  EXPECT_EQ(*first.find("name")->as_string(), "Build");
  EXPECT_EQ(*first.find("max_score")->as_number(), 0.0);
  EXPECT_NE(first.find("output")->as_string()->find("compile_error"), std::string::npos);
  EXPECT_NE(first.find("output")->as_string()->find("ada.cu(12): error: expected a \";\""), std::string::npos);
  const json::value* small = test_named(r, "Small sizes");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(*small->find("score")->as_number(), 0.0);
  EXPECT_EQ(*small->find("max_score")->as_number(), 20.0);
  EXPECT_NE(small->find("output")->as_string()->find("did not build (compile_error)"), std::string::npos);
  EXPECT_NE(read(out_dir() / "report.md").find("ada.cu(12): error"), std::string::npos);
  EXPECT_EQ(*parsed(read(out_dir() / "summary.json")).find("verdict")->as_string(), "compile_error");
}

TEST_F(GradeReport, BuildLogIsClippedToTwentyThousandBytes) {
  build("link_error", std::string(30000, 'x'));
  const run_inputs run = read_run_dir(run_dir_);
  const grading_context who{"Ada", "reduction", "ada.cu", 1};
  const json::value r = gradescope_results(who, run, default_rubric(), grade_run(run, default_rubric()));
  const std::string& out = *r.find("tests")->as_array()->front().find("output")->as_string();
  EXPECT_LT(out.size(), 20200u);
  EXPECT_GT(out.size(), 20000u);
  EXPECT_NE(out.find("10000 more bytes cut"), std::string::npos);
}

TEST_F(GradeReport, EveryGroupPassingScoresFullMarks) {
  all_passing();
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  EXPECT_EQ(*results().find("score")->as_number(), 100.0);
  const json::value summary = parsed(read(out_dir() / "summary.json"));
  EXPECT_EQ(*summary.find("verdict")->as_string(), "passed");
  EXPECT_EQ(*summary.find("max_score")->as_number(), 100.0);
  EXPECT_EQ(*summary.find("seed")->as_string(), "42");
  EXPECT_EQ(*summary.find("groups")->find("sanitizer")->find("passed")->as_number(), 1.0);
}

TEST_F(GradeReport, FractionScoringCountsPassedOverRunAndIgnoresSkips) {
  all_passing();
  unit("grade.small_sizes", {passed("a", "small_sizes"), passed("b", "small_sizes"), passed("c", "small_sizes"),
                             failed("d", "small_sizes", "element 3: expected 4, got 5"),
                             {"e", "skipped", "small_sizes", "1", "needs a larger GPU"}});
  unit("grade.odd_sizes", {passed("a", "odd_sizes"), failed("b", "odd_sizes", "wrong"), failed("c", "odd_sizes", "wrong")});
  const run_grade g = grade();
  EXPECT_EQ(group(g, "small_sizes").earned, 15.0);  // 20 * 3/4
  EXPECT_EQ(group(g, "small_sizes").skipped, 1);
  EXPECT_EQ(group(g, "small_sizes").skip_reason, "needs a larger GPU");
  EXPECT_EQ(group(g, "odd_sizes").earned, 8.33);  // 25 * 1/3, rounded
  EXPECT_DOUBLE_EQ(g.score, 15 + 8.33 + 15 + 15 + 5 + 10 + 10);
  EXPECT_EQ(g.verdict, "wrong_result");
}

TEST_F(GradeReport, AllOrNothingScoresAGroupWithAFailureZero) {
  all_passing();
  unit("grade.small_sizes", {passed("a", "small_sizes"), failed("d", "small_sizes", "wrong")});
  const run_grade g = grade(rubric_of(R"({"groups": {"small_sizes": {"weight": 20}, "odd_sizes": {"weight": 25}},
                                          "scoring": "all_or_nothing"})"));
  EXPECT_EQ(group(g, "small_sizes").earned, 0.0);
  EXPECT_EQ(group(g, "odd_sizes").earned, 25.0);
  EXPECT_EQ(g.max_score, 45.0);
  // Groups the rubric leaves out are still reported, at weight 0.
  EXPECT_EQ(group(g, "large_sizes").weight, 0.0);
  EXPECT_EQ(group(g, "large_sizes").passed, 1);
}

TEST_F(GradeReport, AGroupWhereNoCaseRanScoresZero) {
  build("ok");
  unit("grade.small_sizes", {{"a", "skipped", "small_sizes", "1", "skipped: no GPU"}});
  const run_grade g = grade();
  EXPECT_EQ(group(g, "small_sizes").earned, 0.0);
  EXPECT_FALSE(group(g, "small_sizes").full);
  EXPECT_EQ(group(g, "small_sizes").note, "No case ran, so the group scores 0");
  EXPECT_EQ(group(g, "small_sizes").empty, "no_case_ran");
  EXPECT_NE(g.verdict.find("no_case_ran"), std::string::npos);
}

// Issue 33: a group the submission's declaration leaves empty (one configuration declared: no
// configs case) scores 0 as documented, and is named for what it is, never no_case_ran, which reads
// as a fault. The grading program's listing (run/listed_units.tsv) says which groups it listed.
TEST_F(GradeReport, AGroupTheDeclarationLeavesEmptyIsNamedForWhatItIs) {
  all_passing();
  fs::remove(run_dir_ / "units" / "grade.configs.json");
  write(run_dir_ / "run" / "listed_units.tsv",
        "edge_inputs\t3\t3\nlarge_sizes\t1\t40\nodd_sizes\t1\t1\nperformance\t1\t100\nsmall_sizes\t2\t2\n");
  ASSERT_EQ(grade_cli(rubric_text(default_rubric()), "Zed"), exit_graded) << err_;
  const run_grade g = grade();
  EXPECT_EQ(g.score, 85.0);  // the documented rule stays: no configs case, 0 of 15
  EXPECT_EQ(group(g, "configs").empty, "one_configuration");
  EXPECT_EQ(g.verdict, "one_configuration");
  EXPECT_NE(group(g, "configs").note.find("One configuration declared"), std::string::npos) << group(g, "configs").note;

  const std::string report = read(out_dir() / "report.md");
  EXPECT_NE(report.find("## Launch configurations\n\nOne configuration declared: the submission declares no "
                        "configuration besides its default"),
            std::string::npos)
      << report;
  const std::string output = *test_named(results(), "Launch configurations")->find("output")->as_string();
  EXPECT_EQ(output.rfind("One configuration declared", 0), 0u) << output;
  const json::value summary = parsed(read(out_dir() / "summary.json"));
  EXPECT_EQ(*summary.find("verdict")->as_string(), "one_configuration");
  EXPECT_EQ(*summary.find("groups")->find("configs")->find("empty")->as_string(), "one_configuration");
  EXPECT_EQ(summary.find("groups")->find("odd_sizes")->find("empty"), nullptr);
  std::ostringstream out, err;
  ASSERT_EQ(run_grade_report({"class", "--out", (root_ / "class.csv").string(), out_dir().string()}, out, err), exit_graded);
  EXPECT_NE(read(root_ / "class.csv").find("\nZed,reduction,85,100,one_configuration,20,25,15,0,5,10,10,"), std::string::npos)
      << read(root_ / "class.csv");
  for (const std::string& text : {report, output, read(out_dir() / "summary.json"), read(root_ / "class.csv")})
    EXPECT_EQ(text.find("no_case_ran"), std::string::npos) << text;
}

// Tests whose cases got no device memory on any run beside the batch were run again alone
// (scripts/rerun_memory_starved.sh, run/memory_starved.rerun.tsv): the report says which, so a reader
// knows those verdicts come from that run, and, for a test not run again, why not. Nothing recorded,
// nothing said; a note, never a score.
TEST_F(GradeReport, TheReportSaysWhichTestsRanAgainAloneForDeviceMemory) {
  all_passing();
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  EXPECT_EQ(read(out_dir() / "report.md").find("device memory"), std::string::npos);

  write(run_dir_ / "run" / "memory_starved.rerun.tsv",
        "grade.values\tran\ngrade.sanitizer.memcheck\tran\n"
        "grade.performance\tnot run: the phase's 600 s were spent\n");
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  const std::string report = read(out_dir() / "report.md");
  EXPECT_NE(report.find("were run again alone after the batch, and their verdicts below are from that run "
                        "(`grade.values`, `grade.sanitizer.memcheck`); every other case's are from the first.\n"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("Not run again (the first run's verdicts stand):\n\n- `grade.performance`: not run: the "
                        "phase's 600 s were spent\n"),
            std::string::npos)
      << report;
  EXPECT_EQ(grade().score, 100.0);
}

// A group the grading program listed cases in, of which none recorded a verdict, is a fault, and so
// is any empty group when the listing was not recorded or names no unit (no traits were read).
TEST_F(GradeReport, AGroupListedWithoutAVerdictIsNoCaseRan) {
  all_passing();
  fs::remove(run_dir_ / "units" / "grade.configs.json");
  write(run_dir_ / "listed_units.tsv", "configs\t12\t12\nsmall_sizes\t2\t2\n");
  run_grade g = grade();
  EXPECT_EQ(group(g, "configs").empty, "no_case_ran");
  EXPECT_EQ(g.verdict, "no_case_ran");
  EXPECT_EQ(group(g, "configs").note,
            "No case ran: the grading program listed 12 case(s) in this group and none recorded a verdict, so the "
            "group scores 0");
  write(run_dir_ / "listed_units.tsv", "");
  g = grade();
  EXPECT_EQ(group(g, "configs").empty, "no_case_ran");
  EXPECT_EQ(group(g, "configs").note, "No case ran, so the group scores 0");
  fs::remove(run_dir_ / "listed_units.tsv");
  EXPECT_EQ(grade().verdict, "no_case_ran");
}

TEST_F(GradeReport, PerformanceFollowsTheRubricCurve) {
  const std::pair<const char*, double> points[] = {{"1.0", 10}, {"1.2", 10}, {"2.1", 5}, {"3.0", 0}, {"5.0", 0}};
  for (const auto& [ratio, expected] : points) {
    build("ok");
    unit("grade.performance", {performance(ratio)});
    const group_grade& p = group(grade(), "performance");
    EXPECT_DOUBLE_EQ(p.earned, expected) << "ratio " << ratio;
    EXPECT_NE(p.note.find("full marks at ratio <= 1.2, none at >= 3"), std::string::npos) << p.note;
  }
  group_rule steep{"performance", 30, "", 1.0, 2.0};
  EXPECT_DOUBLE_EQ(performance_score(1.25, steep), 22.5);
}

// The access-registry families time at the lab's repeats and at one and record the worse as `ratio`
// (grading/timed_ratio.hpp): the note names both, and passes on the "repeats appears ignored" note.
TEST_F(GradeReport, PerformanceNoteNamesBothRepeatsRatios) {
  build("ok");
  fake_case c = performance("2.4");
  c.extra.emplace_back("repeats", "10000");
  c.extra.emplace_back("ratio_at_repeats", "0.021");
  c.extra.emplace_back("ratio_at_one_repeat", "2.4");
  c.extra.emplace_back("repeats_note", "repeats appears ignored: from 1 to 10000 repeats the submission's time grew 1x");
  unit("grade.performance", {c});
  const group_grade& p = group(grade(), "performance");
  EXPECT_NEAR(p.earned, 10 * (3 - 2.4) / (3 - 1.2), 0.01) << "the recorded ratio (the worse) is what is scored";
  EXPECT_NE(p.note.find("Timed at 10000 repeats (ratio 0.021) and at one repeat (ratio 2.4): the worse is scored"),
            std::string::npos)
      << p.note;
  EXPECT_NE(p.note.find("repeats appears ignored"), std::string::npos) << p.note;
}

TEST_F(GradeReport, AFailedPerformanceCaseScoresZero) {
  build("ok");
  unit("grade.performance", {performance("0.5", "failed", "element 7: expected 3, got 4 (at the timed size)")});
  const group_grade& p = group(grade(), "performance");
  EXPECT_EQ(p.earned, 0.0);
  EXPECT_NE(p.note.find("failed (wrong_result)"), std::string::npos);
}

TEST_F(GradeReport, LibraryCodeZeroesTheRunWhenTheRubricWantsHandWrittenKernels) {
  all_passing();
  build("ok", "", json::array{"cublasSgemm_v2"});
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  const json::value r = results();
  EXPECT_EQ(*r.find("score")->as_number(), 0.0);
  const json::value* hand = test_named(r, "Hand-written code");
  ASSERT_NE(hand, nullptr);
  EXPECT_NE(hand->find("output")->as_string()->find("cublasSgemm_v2"), std::string::npos);
  EXPECT_EQ(*hand->find("status")->as_string(), "failed");
  EXPECT_NE(*parsed(read(out_dir() / "summary.json")).find("verdict")->as_string(), "passed");

  rubric allowed = default_rubric();
  allowed.hand_written = false;
  EXPECT_EQ(grade(allowed).score, 100.0);
}

TEST_F(GradeReport, SuiteSymbolsZeroTheRunWhateverTheRubric) {
  all_passing();
  build("ok", "", {}, json::array{"kc::reduction::testing::tolerance_for(int)"});
  rubric allowed = default_rubric();
  allowed.hand_written = false;
  const run_grade g = grade(allowed);
  EXPECT_EQ(g.score, 0.0);
  EXPECT_EQ(g.earned, 100.0);
  EXPECT_TRUE(g.zeroed_suite_symbols);
  const run_inputs run = read_run_dir(run_dir_);
  const json::value r = gradescope_results({"Ada", "reduction", "a.cu", 1}, run, allowed, g);
  const std::string& out = *test_named(r, "Suite symbols")->find("output")->as_string();
  EXPECT_NE(out.find("may not define or import the grader's symbols"), std::string::npos);
  EXPECT_NE(out.find("tolerance_for(int)"), std::string::npos);
}

// A submission that reaches cuBLAS through dlopen() imports nothing the symbol scan sees (build.json
// lists no library); the grading processes record what they found at run time on each case.
TEST_F(GradeReport, LibraryCodeFoundAtRunTimeZeroesTheRunAndTheReportSaysWhichAndWhere) {
  all_passing();
  const std::string cublas =
      "cuBLAS: /usr/local/cuda/lib/libcublas.so.13 (called from the submission: cublasCreate_v2, cublasSgemm_v2)";
  const std::string helper = "a library from outside the system and CUDA directories: /tmp/x/libhelper.so (loaded at run time)";
  fake_case first = passed("S/A.B/N32", "small_sizes"), second = passed("S/A.B/N64", "small_sizes");
  first.extra = {{"runtime_libraries", cublas}};
  second.extra = {{"runtime_libraries", cublas + "; " + helper}};  // cumulative in a process: each once
  unit("grade.small_sizes", {first, second});
  fake_case clean = passed("S/A.B/N33", "odd_sizes");
  clean.extra = {{"runtime_libraries", ""}};
  unit("grade.odd_sizes", {clean});

  const run_inputs run = read_run_dir(run_dir_);
  EXPECT_EQ(run.runtime_libraries, (std::vector<std::string>{cublas, helper}));
  EXPECT_TRUE(run.build.libraries.empty());
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  const json::value r = results();
  EXPECT_EQ(*r.find("score")->as_number(), 0.0);
  const json::value* hand = test_named(r, "Hand-written code");
  ASSERT_NE(hand, nullptr);
  EXPECT_EQ(*hand->find("status")->as_string(), "failed");
  const std::string& out = *hand->find("output")->as_string();
  EXPECT_NE(out.find("found at run time"), std::string::npos) << out;
  EXPECT_NE(out.find("\n- " + cublas), std::string::npos) << out;
  EXPECT_NE(out.find("\n- " + helper), std::string::npos) << out;
  EXPECT_NE(out.find("the whole run scores 0"), std::string::npos) << out;
  EXPECT_EQ(out.find("found in the submission:"), std::string::npos) << out;  // the scan found nothing
  const std::string report = read(out_dir() / "report.md");
  EXPECT_NE(report.find("**The total is 0**"), std::string::npos) << report;
  EXPECT_NE(report.find("Found at run time"), std::string::npos) << report;
  EXPECT_NE(report.find("/usr/local/cuda/lib/libcublas.so.13 (called from the submission: cublasCreate_v2"),
            std::string::npos)
      << report;
  EXPECT_EQ(*parsed(read(out_dir() / "summary.json")).find("verdict")->as_string(), "hand_written");

  rubric allowed = default_rubric();
  allowed.hand_written = false;
  const run_grade g = grade(allowed);
  EXPECT_EQ(g.score, 100.0);
  EXPECT_FALSE(g.zeroed_hand_written);
  const std::string allowed_out =
      *test_named(gradescope_results({"Ada", "matmul", "a.cu", 1}, run, allowed, g), "Hand-written code")
           ->find("output")
           ->as_string();
  EXPECT_NE(allowed_out.find("Allowed by this rubric"), std::string::npos) << allowed_out;
}

TEST_F(GradeReport, BothScansAreListedWhenBothFoundLibraryCode) {
  all_passing();
  build("ok", "", json::array{"cublasSgemm_v2"});
  fake_case c = passed("S/A.B/N32", "small_sizes");
  c.extra = {{"runtime_libraries", "cuDNN: /usr/lib/x86_64-linux-gnu/libcudnn.so.9 (loaded at run time)"}};
  unit("grade.small_sizes", {c});
  const run_inputs run = read_run_dir(run_dir_);
  const run_grade g = grade_run(run, default_rubric());
  EXPECT_EQ(g.score, 0.0);
  const std::string out =
      *test_named(gradescope_results({"Ada", "matmul", "a.cu", 1}, run, default_rubric(), g), "Hand-written code")
           ->find("output")
           ->as_string();
  EXPECT_NE(out.find("found in the submission:\n- cublasSgemm_v2"), std::string::npos) << out;
  EXPECT_NE(out.find("\n- cuDNN: /usr/lib/x86_64-linux-gnu/libcudnn.so.9 (loaded at run time)"), std::string::npos)
      << out;
  const std::string report = student_report({"Ada", "matmul", "a.cu", 1}, run, default_rubric(), g);
  EXPECT_NE(report.find("cublasSgemm_v2"), std::string::npos) << report;
  EXPECT_NE(report.find("libcudnn.so.9"), std::string::npos) << report;
}

TEST_F(GradeReport, AnEmptyRuntimeLibrariesPropertyIsNotLibraryCode) {
  all_passing();
  fake_case c = passed("S/A.B/N32", "small_sizes");
  c.extra = {{"runtime_libraries", ""}};
  unit("grade.small_sizes", {c, passed("S/A.B/N64", "small_sizes")});
  const run_grade g = grade();
  EXPECT_EQ(g.score, 100.0);
  EXPECT_EQ(g.verdict, "passed");
}

TEST_F(GradeReport, CleanSubmissionsShowBothChecksAsNoneFound) {
  all_passing();
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  const json::value r = results();
  EXPECT_EQ(*test_named(r, "Hand-written code")->find("output")->as_string(), "none found");
  EXPECT_EQ(*test_named(r, "Suite symbols")->find("output")->as_string(), "none found");
}

TEST_F(GradeReport, HiddenGroupsAreHiddenInResultsAndTheirDetailsLeftOutOfTheReport) {
  build("ok");
  unit("grade.small_sizes", {failed("Vis/A.B/N1", "small_sizes", "VISIBLE-DETAIL")});
  unit("grade.odd_sizes", {failed("Hid/A.B/N33", "odd_sizes", "HIDDEN-DETAIL")});
  ASSERT_EQ(grade_cli(R"({"groups": {"small_sizes": {"weight": 50},
                                     "odd_sizes": {"weight": 50, "visibility": "hidden"}},
                          "visibility": "after_due_date"})"),
            exit_graded)
      << err_;
  const json::value r = results();
  EXPECT_EQ(*r.find("visibility")->as_string(), "after_due_date");
  EXPECT_EQ(*test_named(r, "Odd sizes")->find("visibility")->as_string(), "hidden");
  EXPECT_EQ(*test_named(r, "Build")->find("visibility")->as_string(), "after_due_date");
  const std::string report = read(out_dir() / "report.md");
  EXPECT_EQ(report.find("HIDDEN-DETAIL"), std::string::npos);
  EXPECT_EQ(report.find("Hid/A.B/N33"), std::string::npos);
  EXPECT_NE(report.find("Odd sizes (hidden)"), std::string::npos);
  // The visible group is hidden too here: its visibility defaults to the rubric's (after_due_date).
  EXPECT_EQ(report.find("VISIBLE-DETAIL"), std::string::npos);

  ASSERT_EQ(grade_cli(R"({"groups": {"small_sizes": {"weight": 50},
                                     "odd_sizes": {"weight": 50, "visibility": "hidden"}}})"),
            exit_graded);
  EXPECT_NE(read(out_dir() / "report.md").find("VISIBLE-DETAIL"), std::string::npos);
  EXPECT_EQ(read(out_dir() / "report.md").find("HIDDEN-DETAIL"), std::string::npos);
}

TEST_F(GradeReport, ResultsJsonHasGradescopesRequiredFields) {
  all_passing();
  unit("grade.odd_sizes", {failed("S/A.B/N33", "odd_sizes", "killed by signal 11")}, 2.6);
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  const json::value r = results();
  ASSERT_TRUE(r.is_object());
  ASSERT_NE(r.find("score"), nullptr);
  EXPECT_TRUE(r.find("score")->is_number());
  EXPECT_EQ(*r.find("score")->as_number(), 75.0);
  // Units' seconds: 1.5 * 6 + 2.6 = 11.6, as a whole number.
  EXPECT_EQ(*r.find("execution_time")->as_number(), 12.0);
  EXPECT_EQ(*r.find("stdout_visibility")->as_string(), "hidden");
  const std::string& paragraph = *r.find("output")->as_string();
  EXPECT_NE(paragraph.find("reduction"), std::string::npos);
  EXPECT_NE(paragraph.find("seed 42"), std::string::npos);
  EXPECT_NE(paragraph.find("crash"), std::string::npos);
  const json::array* tests = r.find("tests")->as_array();
  ASSERT_NE(tests, nullptr);
  EXPECT_EQ(tests->size(), 3u + 7u);  // Build, the two checks, seven groups
  for (const json::value& t : *tests) {
    EXPECT_TRUE(t.find("name") && t.find("name")->is_string());
    EXPECT_TRUE(t.find("score") && t.find("score")->is_number());
    EXPECT_TRUE(t.find("max_score") && t.find("max_score")->is_number());
    EXPECT_TRUE(t.find("output") && t.find("output")->is_string());
    ASSERT_TRUE(t.find("visibility") && t.find("visibility")->is_string());
    EXPECT_TRUE(is_visibility(*t.find("visibility")->as_string()));
  }
}

TEST(VerdictKind, EachMessageKindIsClassified) {
  const std::pair<const char*, verdict_kind> cases[] = {
      {"hang: the kernel ran past KCONFORM_KERNEL_DEADLINE_S", verdict_kind::timeout},
      {"did not finish within 300 s", verdict_kind::timeout},
      {"not run: the unit's 2 attempts each hung", verdict_kind::timeout},
      {"not run: the hang budget of this grading run is spent (4 cases hung ...)", verdict_kind::timeout},
      {"hang: killed by signal 9 after the deadline", verdict_kind::timeout},  // first match wins
      {"killed by signal 11", verdict_kind::crash},
      {"exited with status 0 while running this case", verdict_kind::exit},
      {"cudaDeviceSynchronize: sticky CUDA error (an illegal memory access)", verdict_kind::fault},
      {"an illegal instruction was encountered", verdict_kind::fault},
      {"unspecified launch failure", verdict_kind::fault},
      {"racecheck: 4 hazards between write and read", verdict_kind::sanitizer},
      {"cudaMalloc: out of memory", verdict_kind::memory},
      {"memory_exhausted while allocating the input", verdict_kind::memory},
      {"the test process held 9000 MiB of device memory, past the device memory limit of 6144 MiB per process",
       verdict_kind::memory},
      {"the launcher refused block 1024: needs a power of two", verdict_kind::refused_config},
      {"the answer depends on earlier calls: after the timing, ...", verdict_kind::cached_answers},
      {"timing evaded: in timed sample 1 the call returned before its output was complete: ...", verdict_kind::timing_evaded},
      {"element 3: expected 4, got 5", verdict_kind::wrong_result},
      {"", verdict_kind::wrong_result},
  };
  for (const auto& [message, kind] : cases)
    EXPECT_STREQ(name_of(classify_failure(message)), name_of(kind)) << message;
}

TEST_F(GradeReport, TheSmallestFailingCaseIsTheLeastWorkFirstOnTies) {
  build("ok");
  unit("grade.odd_sizes", {failed("Big/A.B/N5000", "odd_sizes", "big wrong", "5000"),
                           failed("First/A.B/N100", "odd_sizes", "expected 1, got 2", "100"),
                           failed("Second/A.B/N100", "odd_sizes", "tie", "100"),
                           failed("NoWork/A.B/N1", "odd_sizes", "no work recorded", "")});
  const run_grade g = grade();
  const group_grade& odd = group(g, "odd_sizes");
  ASSERT_EQ(odd.smallest, 1);
  EXPECT_EQ(odd.failures[odd.smallest].c.name, "First/A.B/N100");
  const grading_context who{"Ada", "reduction", "subs/ada one.cu", 7};
  const std::string out = group_output(who, default_rubric(), g, odd);
  EXPECT_NE(out.find("Smallest failing case: description of First/A.B/N100 (listed above as number 2)"), std::string::npos)
      << out;
  EXPECT_NE(out.find("scripts/grade.sh --family reduction --submission 'subs/ada one.cu' --seed 7 "
                     "--only 'First/A.B/N100'"),
            std::string::npos)
      << out;
  // failures_listed 3: the fourth failure is not listed.
  EXPECT_EQ(out.find("no work recorded"), std::string::npos);
  const std::string report = student_report(who, read_run_dir(run_dir_), default_rubric(), g);
  EXPECT_NE(report.find("Smallest failing case: **description of First/A.B/N100**"), std::string::npos) << report;
}

TEST(Rubric, UnknownKeysAndBadValuesAreErrorsNamingTheField) {
  std::string error;
  EXPECT_FALSE(parse_rubric(R"({"groups": {"small_sizes": {"weigth": 20}}})", &error));
  EXPECT_NE(error.find("groups.small_sizes.weigth"), std::string::npos) << error;
  EXPECT_FALSE(parse_rubric(R"({"groups": {}, "bonus": 5})", &error));
  EXPECT_NE(error.find("bonus"), std::string::npos) << error;
  EXPECT_FALSE(parse_rubric(R"({"groups": {"tiny_sizes": {"weight": 5}}})", &error));
  EXPECT_NE(error.find("groups.tiny_sizes"), std::string::npos) << error;
  EXPECT_FALSE(parse_rubric(R"({"groups": {"configs": {"weight": 5, "full_at": 1.1}}})", &error));
  EXPECT_NE(error.find("groups.configs.full_at"), std::string::npos) << error;
  EXPECT_FALSE(parse_rubric(R"({"groups": {"performance": {"weight": 5, "full_at": 3, "zero_at": 2}}})", &error));
  EXPECT_FALSE(parse_rubric(R"({"groups": {}, "visibility": "secret"})", &error));
  EXPECT_NE(error.find("visibility"), std::string::npos) << error;
  EXPECT_FALSE(parse_rubric(R"({"groups": {}, "scoring": "curve"})", &error));
  EXPECT_FALSE(parse_rubric(R"({"groups": {"odd_sizes": {"weight": -1}}})", &error));
  EXPECT_FALSE(parse_rubric(R"({"scoring": "fraction"})", &error));
  EXPECT_NE(error.find("groups"), std::string::npos) << error;
  EXPECT_FALSE(parse_rubric("{\"groups\": ", &error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
}

TEST(Rubric, TheDefaultRubricReadsBackAndIsWorthOneHundred) {
  std::string error;
  const std::optional<rubric> r = parse_rubric(rubric_text(default_rubric()), &error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->max_score(), 100.0);
  ASSERT_EQ(r->groups.size(), 7u);
  EXPECT_EQ(r->groups[1].name, "odd_sizes");
  EXPECT_EQ(r->groups[1].weight, 25.0);
  EXPECT_EQ(r->find("performance")->zero_at, 3.0);
  EXPECT_EQ(r->failures_listed, 3);
  std::ostringstream out, err;
  EXPECT_EQ(run_grade_report({"default-rubric", "--family", "matmul"}, out, err), exit_graded);
  EXPECT_EQ(out.str(), rubric_text(default_rubric()));
  EXPECT_EQ(run_grade_report({"default-rubric", "--family", "stencil"}, out, err), exit_bad_usage);
  EXPECT_EQ(run_grade_report({"default-rubric", "--family", "matmul,reduction"}, out, err), exit_bad_usage)
      << "two families in one argument are not a family";
  EXPECT_EQ(run_grade_report({"default-rubric", "--family", ""}, out, err), exit_bad_usage);
}

TEST_F(GradeReport, AnInvalidRubricOrSeedIsABadUsageExit) {
  all_passing();
  EXPECT_EQ(grade_cli(R"({"groups": {"small_sizes": {"weight": 20, "bonus": 1}}})"), exit_bad_usage);
  EXPECT_NE(err_.find("groups.small_sizes.bonus"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(out_dir() / "results.json"));
  std::ostringstream out, err;
  EXPECT_EQ(run_grade_report({"student", "--run-dir", run_dir_.string(), "--rubric", "/nonexistent/rubric.json",
                              "--family", "reduction", "--student", "A", "--submission", "a.cu", "--seed", "1",
                              "--out", out_dir().string()},
                             out, err),
            exit_bad_usage);
  write(root_ / "rubric.json", rubric_text(default_rubric()));
  EXPECT_EQ(run_grade_report({"student", "--run-dir", run_dir_.string(), "--rubric", (root_ / "rubric.json").string(),
                              "--family", "reduction", "--student", "A", "--submission", "a.cu", "--seed", "-3",
                              "--out", out_dir().string()},
                             out, err),
            exit_bad_usage);
}

TEST_F(GradeReport, AMissingBuildRecordIsAGraderProblemNotAPass) {
  unit("grade.small_sizes", {passed("a", "small_sizes")});
  EXPECT_EQ(grade_cli(rubric_text(default_rubric())), exit_grader_problem);
  EXPECT_NE(err_.find("build.json is missing"), std::string::npos) << err_;
  EXPECT_EQ(*results().find("score")->as_number(), 0.0);
}

// A judge that could not run the submission at all (its sandboxed executor could not read the
// library, or open the device: grading/executor/remote_submission.cpp) marks each case it failed so.
// Found on an H100: a correct submission graded into a folder the sandbox's uid could not reach
// scored 10 with "refused_config". Such a grade must say it is the grader's failure, and the exit
// status must tell grade.sh, once per unit however many cases failed.
TEST_F(GradeReport, ACaseTheGraderCouldNotRunMakesTheGradeAGraderProblem) {
  all_passing();
  const std::string denied = "could not load the submission: /out/ada/lib/libsubmission.so: Permission denied";
  fake_case first = failed("S/A.B/N32", "small_sizes", "the launcher refused: " + denied);
  fake_case second = failed("S/A.B/N64", "small_sizes", "the launcher refused: " + denied);
  first.extra = second.extra = {{"grader_problem", denied}};
  unit("grade.small_sizes", {first, second});

  const run_inputs run = read_run_dir(run_dir_);
  ASSERT_EQ(run.problems.size(), 1u);
  EXPECT_EQ(run.problems[0], "unit grade.small_sizes: the grader could not run the submission: " + denied);
  EXPECT_EQ(grade_cli(rubric_text(default_rubric())), exit_grader_problem) << err_;
  EXPECT_NE(err_.find(denied), std::string::npos) << err_;
  EXPECT_NE(read(out_dir() / "report.md").find("this grade is not final"), std::string::npos);
  EXPECT_NE(read(out_dir() / "report.md").find(denied), std::string::npos);
  EXPECT_NE(parsed(read(out_dir() / "summary.json")).find("verdict")->as_string()->find("grader_error"),
            std::string::npos);
  EXPECT_EQ(group(grade(), "small_sizes").earned, 0.0);

  // Under a tool, a case the grader could not run is no case the tool watched: the group earns nothing
  // for it (a refusal otherwise counts as a finished case, and its tool as clean).
  fake_case refused_under_tool = failed("S/A.B/N1025B256", "small_sizes", "the launcher refused: " + denied);
  refused_under_tool.extra = {{"grader_problem", denied}};
  unit("grade.sanitizer.racecheck", {refused_under_tool});
  EXPECT_EQ(group(grade(), "sanitizer").earned, 0.0);
  refused_under_tool.extra = {};
  unit("grade.sanitizer.racecheck", {refused_under_tool});
  EXPECT_EQ(group(grade(), "sanitizer").earned, 10.0);  // the student's own refusal: the tool watched it

  // The same failures without the judge's mark are the student's: graded, no grader problem.
  first.extra = second.extra = {};
  unit("grade.small_sizes", {first, second});
  EXPECT_TRUE(read_run_dir(run_dir_).problems.empty());
  EXPECT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
}

TEST_F(GradeReport, TheClassCsvHasOneSortedQuotedRowPerStudent) {
  all_passing();
  const fs::path zed = root_ / "zed", ada = root_ / "ada";
  ASSERT_EQ(grade_cli(rubric_text(default_rubric()), "Zed", 9), exit_graded);
  fs::rename(out_dir(), zed);
  unit("grade.odd_sizes", {failed("S/A.B/N33", "odd_sizes", "element 0: expected 1, got 2")});
  unit("grade.configs", {failed("S/A.B/N1025B64", "configs", "killed by signal 6")});
  ASSERT_EQ(grade_cli(rubric_text(default_rubric()), "Lovelace, \"Ada\"", 18446744073709551615ull), exit_graded);
  fs::rename(out_dir(), ada);
  std::ostringstream out, err;
  ASSERT_EQ(run_grade_report({"class", "--out", (root_ / "class.csv").string(), zed.string(), ada.string()}, out, err),
            exit_graded)
      << err.str();
  EXPECT_EQ(read(root_ / "class.csv"),
            "student,family,score,max_score,verdict,small_sizes,odd_sizes,large_sizes,configs,edge_inputs,sanitizer,"
            "performance,seconds,seed\n"
            "\"Lovelace, \"\"Ada\"\"\",reduction,60,100,\"crash,wrong_result\",20,0,15,0,5,10,10,10.5,"
            "18446744073709551615\n"
            "Zed,reduction,100,100,passed,20,25,15,15,5,10,10,10.5,9\n");
}

TEST_F(GradeReport, AFolderWithoutASummaryStillGetsARow) {
  std::ostringstream out, err;
  fs::create_directories(root_ / "empty");
  EXPECT_EQ(run_grade_report({"class", "--out", (root_ / "class.csv").string(), (root_ / "empty").string()}, out, err),
            exit_grader_problem);
  const std::string csv = read(root_ / "class.csv");
  EXPECT_NE(csv.find("\nempty,,,,unreadable: no summary.json"), std::string::npos) << csv;
}

TEST_F(GradeReport, EveryCaseOfASanitizerUnitCountsInSanitizer) {
  build("ok");
  unit("grade.sanitizer.racecheck", {passed("S/A.B/N1025B256", "small_sizes"),
                                     failed("S/A.B/N1025B512", "configs", "racecheck: 2 hazards found")});
  unit("grade.small_sizes", {passed("S/A.B/N32", "small_sizes")});
  unit("grade.sanitizer.memcheck", {passed("S/A.B/N1025B256", "small_sizes"), passed("S/A.B/N1025B512", "configs")});
  const run_grade g = grade();
  // Per tool: memcheck clean, racecheck not (one hazard report per process, whatever the case count);
  // the counts are tools, as the score is.
  EXPECT_EQ(group(g, "sanitizer").counted, "tools");
  EXPECT_EQ(group(g, "sanitizer").passed, 1);
  EXPECT_EQ(group(g, "sanitizer").failed, 1);
  EXPECT_EQ(group(g, "sanitizer").earned, 5.0);
  EXPECT_EQ(counts_text(group(g, "sanitizer")), "1 of 2 tools clean");
  EXPECT_NE(group(g, "sanitizer").note.find("Scored per tool (racecheck reported hazards)"), std::string::npos)
      << group(g, "sanitizer").note;
  EXPECT_EQ(group(g, "small_sizes").run(), 1);
  EXPECT_EQ(group(g, "configs").run(), 0);
  EXPECT_EQ(group(g, "sanitizer").failures.front().kind, verdict_kind::sanitizer);
}

// The tool's verdict is its findings: a case that fails its value check (or its memory limit) under
// the tool leaves the tool clean; a hazard reported outside any case (a leak at exit) does not.
TEST_F(GradeReport, OnlyTheToolsOwnFindingsMakeAToolDirty) {
  build("ok");
  unit("grade.sanitizer.racecheck", {failed("S/A.B/N1025B256", "small_sizes", "device memory limit: the submission asked for 9 GiB")});
  unit("grade.sanitizer.memcheck", {passed("S/A.B/N1025B256", "small_sizes"),
                                    failed("grade.sanitizer.memcheck.OutsideAnyCase", "small_sizes",
                                           "1 hazard(s) were reported outside any case (start-up or exit)")});
  const run_grade g = grade();
  EXPECT_EQ(group(g, "sanitizer").earned, 5.0);
  EXPECT_EQ(counts_text(group(g, "sanitizer")), "1 of 2 tools clean");
  EXPECT_NE(group(g, "sanitizer").note.find("Scored per tool (memcheck reported hazards)"), std::string::npos)
      << group(g, "sanitizer").note;
  // The memory failure under racecheck is listed, not counted: the finding outside any case is.
  ASSERT_EQ(group(g, "sanitizer").failures.size(), 1u);
  EXPECT_EQ(group(g, "sanitizer").failures.front().c.name, "grade.sanitizer.memcheck.OutsideAnyCase");
  ASSERT_EQ(group(g, "sanitizer").not_counted.size(), 1u);
  EXPECT_EQ(group(g, "sanitizer").not_counted.front().kind, verdict_kind::memory);
}

// The tool's lines for a report outside any case (tools/runner's tool_said) are shown with it, and
// never decide its kind: memcheck's exit-time line after a fault names an "unspecified launch
// failure", and a submission can write into the tool's channel ("killed by signal 9").
TEST_F(GradeReport, TheToolsLinesOutsideAnyCaseAreShownAndDoNotChangeTheFailuresKind) {
  all_passing();
  fake_case outside = failed("grade.sanitizer.memcheck.OutsideAnyCase", "small_sizes",
                             "2 hazard(s) were reported outside any case (start-up or exit)");
  outside.extra = {{"tool_said",
                    "========= Leaked 4100 bytes at 0x7f534cc00000\n"
                    "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\"\n"
                    "========= Error: killed by signal 9 (forged)"}};
  unit("grade.sanitizer.memcheck", {passed("S/A.B/N33", "small_sizes"), outside});
  const run_grade g = grade();
  ASSERT_EQ(group(g, "sanitizer").failures.size(), 1u);
  EXPECT_EQ(group(g, "sanitizer").failures.front().kind, verdict_kind::sanitizer);
  EXPECT_EQ(g.verdict, "sanitizer");
  const grading_context who{"Ada", "reduction", "ada.cu", 7};
  const std::string report = student_report(who, read_run_dir(run_dir_), default_rubric(), g);
  EXPECT_NE(report.find("The tool's first lines:\n\n```\n========= Leaked 4100 bytes at 0x7f534cc00000\n"), std::string::npos)
      << report;
  const std::string output = group_output(who, default_rubric(), g, group(g, "sanitizer"));
  EXPECT_NE(output.find("the tool's first lines:\n    | ========= Leaked 4100 bytes"), std::string::npos) << output;
  EXPECT_NE(output.find("\n    | ========= Error: killed by signal 9 (forged)\n"), std::string::npos) << output;
}

// A replay must rerun what failed: a tool's finding under that tool (--tool; grade.sh's --only alone
// runs no tool), and a report outside any case, which names no case, as the whole tool run (no --only).
TEST(ReplayCommand, AToolsFindingIsReplayedUnderThatToolAndAReportOutsideAnyCaseAsTheWholeToolRun) {
  const grading_context who{"Ada", "reduction", "subs/ada.cu", 7};
  case_record value;
  value.unit = "grade.odd_sizes";
  value.name = "Odd/A.B/N33";
  EXPECT_EQ(replay_command(who, value),
            "scripts/grade.sh --family reduction --submission subs/ada.cu --seed 7 --only 'Odd/A.B/N33'");
  case_record in_case = value;
  in_case.unit = "grade.sanitizer.racecheck";
  EXPECT_EQ(replay_command(who, in_case),
            "scripts/grade.sh --family reduction --submission subs/ada.cu --seed 7 --tool racecheck --only 'Odd/A.B/N33'");
  for (const char* suffix : {".OutsideAnyCase", ".OutsideAnyCase.deferred"}) {
    case_record outside;
    outside.unit = "grade.sanitizer.memcheck";
    outside.name = outside.unit + suffix;
    EXPECT_EQ(replay_command(who, outside), "scripts/grade.sh --family reduction --submission subs/ada.cu --seed 7 --tool memcheck")
        << suffix;
  }
}

// Issue 33: a submission whose every case failed its value check under the tools, with no tool
// finding, scored 10/10 in the sanitizer group while the group said "passed 0, failed 12". Its
// counts are now the tools it scores, and the value failures are listed as not counted, in
// report.md, results.json and summary.json alike.
TEST_F(GradeReport, TheSanitizerGroupCountsWhatItScoresAndListsValueFailuresApart) {
  all_passing();
  for (const std::string tool : {"memcheck", "racecheck", "synccheck"}) {
    std::vector<fake_case> cases;
    for (const std::string n : {"33", "1025", "4097", "65537"})
      cases.push_back(failed("S/A.B/N" + n, "odd_sizes", "total: expected " + n + ", got 0"));
    unit("grade.sanitizer." + tool, cases);
  }
  unit("grade.odd_sizes", {failed("S/A.B/N33", "odd_sizes", "total: expected 33, got 0")});
  ASSERT_EQ(grade_cli(rubric_text(default_rubric())), exit_graded) << err_;
  const run_grade g = grade();
  const group_grade& sanitizer = group(g, "sanitizer");
  EXPECT_EQ(sanitizer.earned, 10.0);  // the documented rule: every tool watched cases finish, none reported
  EXPECT_EQ(sanitizer.passed, 3);
  EXPECT_EQ(sanitizer.failed, 0);
  EXPECT_TRUE(sanitizer.failures.empty());
  EXPECT_EQ(sanitizer.not_counted.size(), 12u);
  EXPECT_EQ(g.verdict, "wrong_result");  // the value group's failure, not the sanitizer's

  const std::string report = read(out_dir() / "report.md");
  EXPECT_NE(report.find("| Sanitizer (tools) | 3 | 3 | 0 | 10 | 10 |"), std::string::npos) << report;
  EXPECT_NE(report.find("3 of 3 tools clean."), std::string::npos) << report;
  EXPECT_NE(report.find("Failed under a tool, but not by a tool finding: not counted here"), std::string::npos)
      << report;
  EXPECT_NE(report.find("- under memcheck: description of S/A.B/N33 (`S/A.B/N33`, wrong_result)"), std::string::npos)
      << report;
  EXPECT_NE(report.find("(9 more not listed.)"), std::string::npos) << report;
  EXPECT_EQ(report.find("0 of 12"), std::string::npos) << report;

  const std::string output = *test_named(results(), "Sanitizer")->find("output")->as_string();
  EXPECT_EQ(output.rfind("3 of 3 tools clean.\n", 0), 0u) << output;
  EXPECT_NE(output.find("not counted here (the value groups grade these cases; the first 3 of 12)"), std::string::npos)
      << output;
  EXPECT_EQ(output.find("Failed cases"), std::string::npos) << output;

  const json::value summary = parsed(read(out_dir() / "summary.json"));
  const json::value& counts = *summary.find("groups")->find("sanitizer");
  EXPECT_EQ(*counts.find("counted")->as_string(), "tools");
  EXPECT_EQ(*counts.find("passed")->as_number(), 3.0);
  EXPECT_EQ(*counts.find("failed")->as_number(), 0.0);
  EXPECT_EQ(*counts.find("not_counted")->as_number(), 12.0);
  EXPECT_EQ(*summary.find("groups")->find("odd_sizes")->find("counted")->as_string(), "cases");
}

// The contract's input rule is stated to every KC_REDUCE_FULL student, and to no one else; with it,
// in how many cases their kernel overwrote its input (each case's input_overwritten property).
TEST_F(GradeReport, TheReportStatesTheFullReductionInputRule) {
  const auto overwrote = [](fake_case c, const char* said) {
    c.extra = {{"input_overwritten", said}};
    return c;
  };
  const auto report_with = [&](const std::string& kind, bool recorded) {
    fs::remove_all(run_dir_ / "units");
    write(run_dir_ / "build.json", json::dump(json::object{{"status", "ok"},
                                                           {"log", ""},
                                                           {"libraries", json::array{}},
                                                           {"suite_symbols", json::array{}},
                                                           {"traits", json::object{{"family", "reduction"}, {"kind", kind}}}}));
    if (!recorded) {
      unit("grade.small_sizes", {passed("S/A.B/N32", "small_sizes")});
    } else {
      // 2 of the 4 visible cases overwrote in[]; N1025 ran twice (its last record counts); the
      // sanitizer's repeat and the hidden group's case are not counted.
      unit("grade.small_sizes", {overwrote(passed("S/A.B/N32", "small_sizes"), "1"),
                                 overwrote(passed("S/A.B/N64", "small_sizes"), "0")});
      unit("grade.odd_sizes", {overwrote(passed("S/A.B/N33", "odd_sizes"), "1"),
                               overwrote(failed("S/A.B/N1025", "odd_sizes", "total: wrong"), "1"),
                               overwrote(passed("S/A.B/N1025", "odd_sizes"), "0")});
      unit("grade.edge_inputs", {overwrote(passed("S/A.B/N1025Ones", "edge_inputs"), "1")});
      unit("grade.sanitizer.memcheck", {overwrote(passed("S/A.B/N64", "small_sizes"), "1")});
    }
    rubric rules = default_rubric();
    for (group_rule& g : rules.groups)
      if (g.name == "edge_inputs") g.visibility = "hidden";
    const run_inputs run = read_run_dir(run_dir_);
    return student_report({"Ada", "reduction", "a.cu", 1}, run, rules, grade_run(run, rules));
  };
  const std::string counted = report_with("full", true);
  EXPECT_NE(counted.find("Input rule: a KC_REDUCE_FULL reduction may overwrite its input"), std::string::npos) << counted;
  EXPECT_NE(counted.find("Your kernel overwrote its input in 2 of 4 cases: allowed for KC_REDUCE_FULL by the contract "
                         "(it would not be for a library routine that promises a const input)."),
            std::string::npos)
      << counted;
  const std::string unrecorded = report_with("full", false);
  EXPECT_NE(unrecorded.find("Input rule: a KC_REDUCE_FULL reduction may overwrite"), std::string::npos) << unrecorded;
  EXPECT_EQ(unrecorded.find("Your kernel"), std::string::npos) << unrecorded;
  EXPECT_EQ(report_with("pass", false).find("Input rule"), std::string::npos);
}

// A kernel that never changed in[] is told so, not that it overwrote it.
TEST_F(GradeReport, TheInputRuleSaysWhenTheInputWasLeftAlone) {
  build("ok");
  fake_case kept = passed("S/A.B/N32", "small_sizes");
  kept.extra = {{"input_overwritten", "0"}};
  fake_case kept_too = passed("S/A.B/N64", "small_sizes");
  kept_too.extra = {{"input_overwritten", "0"}};
  unit("grade.small_sizes", {kept, kept_too});
  const run_inputs run = read_run_dir(run_dir_);
  const std::string report =
      student_report({"Ada", "reduction", "a.cu", 1}, run, default_rubric(), grade_run(run, default_rubric()));
  EXPECT_NE(report.find("Your kernel left its input unchanged in all 2 cases checked."), std::string::npos) << report;
  EXPECT_EQ(report.find("overwrote its input in"), std::string::npos) << report;
}

// A case whose recorded seed is not the grading run's drew inputs the grader did not choose: failed.
TEST_F(GradeReport, ACaseRunWithAnotherSeedFails) {
  build("ok");
  fake_case mine = passed("S/A.B/N32", "small_sizes");
  mine.extra = {{"seed", "42"}};
  fake_case chosen = passed("S/A.B/N20261122", "small_sizes");
  chosen.extra = {{"seed", "20261122"}};
  unit("grade.small_sizes", {mine, chosen, passed("S/A.B/N64", "small_sizes")});
  run_inputs run = read_run_dir(run_dir_);
  EXPECT_EQ(fail_cases_with_another_seed(&run, 42), 1);
  const run_grade g = grade_run(run, default_rubric());
  EXPECT_EQ(group(g, "small_sizes").failed, 1);
  EXPECT_NE(group(g, "small_sizes").failures.front().c.message.find("not the grading run's seed 42"), std::string::npos);
}

// memcheck stops a kernel at its first bad access, so the case fails as a fault too; the runner keeps
// the tool's finding in the message, and the tool is not clean.
TEST_F(GradeReport, AToolsFindingInACaseThatAlsoFaultedCounts) {
  build("ok");
  unit("grade.sanitizer.memcheck",
       {passed("S/A.B/N33", "small_sizes"),
        failed("S/A.B/N1025", "small_sizes",
               "cudaStreamSynchronize: unspecified launch failure\nmemcheck reported 1 hazard(s) during this case")});
  unit("grade.sanitizer.racecheck", {passed("S/A.B/N33", "small_sizes")});
  const run_grade g = grade();
  EXPECT_EQ(group(g, "sanitizer").earned, 5.0);
}

// A tool under which every case hung found nothing because it watched nothing: not clean.
TEST_F(GradeReport, AToolThatSawNoCaseFinishIsNotClean) {
  build("ok");
  unit("grade.sanitizer.racecheck", {failed("S/A.B/N1025B256", "small_sizes", "hang: the kernel ran past the deadline")});
  unit("grade.sanitizer.memcheck", {passed("S/A.B/N1025B256", "small_sizes")});
  const run_grade g = grade();
  EXPECT_EQ(group(g, "sanitizer").earned, 5.0);
}

// A process that dies in a case (a crash, a hang, exit()) never records the case's properties; the
// runner still reports the case, in its unit, whose name is the group's.
TEST_F(GradeReport, ACaseWhoseProcessDiedCountsInItsUnitsGroup) {
  build("ok");
  unit("grade.odd_sizes", {passed("S/A.B/N33", "odd_sizes"),
                           failed("S/A.B/N1000", "", "hang: waiting for the launch took longer than 10 s")});
  unit("grade.tuning", {failed("S/A.B/N7", "", "killed by signal 11")});
  const run_grade g = grade();
  EXPECT_EQ(group(g, "odd_sizes").passed, 1);
  EXPECT_EQ(group(g, "odd_sizes").failed, 1);
  EXPECT_EQ(group(g, "odd_sizes").failures.front().kind, verdict_kind::timeout);
  EXPECT_EQ(group(g, "other").failed, 1);  // a unit that names no group
}

TEST_F(GradeReport, UnitsAreReadWhereGradeShPutsThemToo) {
  build("ok");
  write(run_dir_ / "run" / "units" / "grade.odd_sizes.json",
        json::dump(json::object{{"unit", "grade.odd_sizes"},
                                {"seconds", 2},
                                {"cases", json::array{json::object{{"name", "S/A.B/N33"},
                                                                   {"status", "passed"},
                                                                   {"properties", json::object{{"group", "odd_sizes"}}}}}}}));
  unit("grade.small_sizes", {passed("a", "small_sizes")});
  const run_grade g = grade();
  EXPECT_EQ(group(g, "odd_sizes").passed, 1);
  EXPECT_EQ(group(g, "small_sizes").passed, 1);
  EXPECT_DOUBLE_EQ(g.seconds, 3.5);
}

TEST_F(GradeReport, AMalformedUnitFileIsReportedAndAnUnknownStatusIsNotAPass) {
  build("ok");
  write(run_dir_ / "units" / "grade.configs.json", "{\"unit\": \"grade.configs\", \"cases\": [");
  unit("grade.small_sizes", {passed("a", "small_sizes"), {"b", "timeout", "small_sizes", "1", "?"}});
  const run_inputs run = read_run_dir(run_dir_);
  ASSERT_EQ(run.problems.size(), 2u);
  EXPECT_NE(run.problems[0].find("grade.configs.json: not valid JSON"), std::string::npos) << run.problems[0];
  const run_grade g = grade_run(run, default_rubric());
  EXPECT_EQ(group(g, "small_sizes").failed, 1);
  EXPECT_EQ(group(g, "small_sizes").earned, 10.0);
  EXPECT_NE(g.verdict.find("grader_error"), std::string::npos) << g.verdict;
}

TEST_F(GradeReport, ACaseWithoutAGroupCountsInOtherAtWeightZero) {
  build("ok");
  unit("grade.small_sizes", {passed("a", "small_sizes")});
  unit("grade.tuning", {failed("b", "", "wrong")});  // neither a group property nor a group's unit
  const run_grade g = grade();
  EXPECT_EQ(group(g, "other").failed, 1);
  EXPECT_EQ(group(g, "other").weight, 0.0);
  EXPECT_EQ(group(g, "small_sizes").earned, 20.0);
  EXPECT_EQ(g.max_score, 100.0);
}

TEST(ReportText, QuotingForShellAndCsv) {
  EXPECT_EQ(shell_word("subs/ada.cu"), "subs/ada.cu");
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word("Suite/A.B/N1", true), "'Suite/A.B/N1'");
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(fenced("a ``` b"), "````\na ``` b\n````\n");
  EXPECT_EQ(clip("h\xC3\xA9llo", 2), "h\n[... 5 more bytes cut]");  // not inside the two-byte é
  EXPECT_EQ(round2(8.33333), 8.33);
}

}  // namespace
}  // namespace kc::grade_report
