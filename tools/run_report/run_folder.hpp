// Everything a GPU run left in its report folder (scripts/run_gpu_suite.sh, summarise_run.sh), read
// into one value the page is drawn from. Only the folder's files are read: the page of a run copied
// off its machine (a CI artefact) is the page it had there. A missing piece is an empty field; a file
// that cannot be read or parsed is a line in `problems`; neither stops the report.
#pragma once

#include "tools/perf_report/perf_rows.hpp"
#include "tools/run_report/csv_table.hpp"
#include "tools/run_report/junit_reader.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kc::run_report {

enum class outcome { passed, failed, skipped };
const char* name_of(outcome o);

// One CTest test of junit.xml: a unit, a CPU test, a benchmark, a sanitizer or profile check.
struct ctest_test {
  std::string name;
  outcome result = outcome::failed;
  double seconds = 0;
  std::string message;  // CTest's reason ("Failed", "Timeout", "SKIP_RETURN_CODE=77")
  std::string output;   // what the test printed (CTest keeps it in <system-out>)
};

// One case of a unit (units/<unit>.xml, written by tools/runner).
struct unit_case {
  std::string name;  // gtest's full name: "Matmul/Conformance.MatchesReference/SharedTiledM33N65K17B16TW16Integer"
  outcome result = outcome::failed;
  double seconds = 0;
  std::string message;  // the whole failure (or skip) message
  property_list properties;
  std::string property(std::string_view key) const { return property_of(properties, key); }
};

struct unit_run {
  std::string name;    // the CTest test: "matmul.conformance.SharedTiled"
  std::string family;  // the kernel family it tests: family_of_unit(name)
  int processes = 0;
  double seconds = 0;
  std::vector<unit_case> cases;
  std::size_t count(outcome o) const;
};

// The kernel family a unit tests: its first dotted component ("matmul.conformance.SharedTiled":
// "matmul"), but a sanitizer unit's third ("sanitizer.racecheck.polybench_conv2d.catches":
// "polybench_conv2d"), so each family's tool runs sit with its other units (issue 35).
std::string family_of_unit(const std::string& unit_name);

// Whether a first component names something other than a kernel family: the suite's own fixtures
// ("fixtures"), or an umbrella over several families ("polybench" over "polybench_atax", ...: a unit
// such as polybench.perf.AgainstBaseline), given every family the run holds. These are listed apart.
bool is_across_families(const std::string& family, const std::vector<std::string>& all_families);

// "- key: value" lines of summary.md's header (GPU, driver, commit, command, build), in order, and
// its verdict line.
struct summary_facts {
  std::vector<std::pair<std::string, std::string>> items;
  std::string verdict;  // "PASSED", "FAILED: 1 CTest unit(s) failed or did not run"; "" without summary.md
  std::string item(std::string_view key) const;
};

// A benchmark's table: <name>.csv, and <name>.md (its conditions and method) when present.
struct benchmark_result {
  std::string name;           // "reduction_benchmark"
  std::string markdown_file;  // "reduction_benchmark.md", or "" when absent
  csv_table table;
};

struct run_folder {
  std::filesystem::path dir;
  std::optional<std::vector<ctest_test>> ctest;  // nullopt: no junit.xml (the tests never ran)
  std::vector<unit_run> units;                   // by file name
  summary_facts summary;
  std::string gpu_name;                          // "" when no file names it
  std::vector<std::string> failure_dumps;        // file names under failures/, sorted
  perf_report::perf_rows perf;
  bool has_perf_html = false;
  std::vector<benchmark_result> benchmarks;      // every *_benchmark.csv, by file name
  std::vector<std::string> files;                // the run's top-level files the page links to, present ones only
  std::vector<std::string> problems;
};

run_folder read_run_folder(const std::filesystem::path& dir);

// The GPU's name from `nvidia-smi`'s table ("|   0  NVIDIA H100 80GB HBM3   On  | ..."); "" if none.
std::string gpu_name_from_nvidia_smi(std::string_view text);

// summary.md's header facts and verdict line.
summary_facts read_summary(std::string_view text);

// CTest's JUnit (junit.xml) as tests; the runner's unit JUnit (units/<unit>.xml) as a unit.
std::vector<ctest_test> ctest_tests_of(const std::vector<junit_suite>& suites);
unit_run unit_of(const std::vector<junit_suite>& suites, const std::string& file_stem);

}  // namespace kc::run_report
