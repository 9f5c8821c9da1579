#include "tools/run_report/run_folder.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

namespace kc::run_report {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_text(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Regular files of `folder` whose names end with `suffix`, sorted by name.
std::vector<fs::path> files_ending(const fs::path& folder, std::string_view suffix) {
  std::vector<fs::path> found;
  std::error_code error;
  if (!fs::is_directory(folder, error)) return found;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error))
    if (entry.is_regular_file(error) && entry.path().filename().string().ends_with(suffix)) found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  return found;
}

std::string trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  return std::string(text.substr(first, text.find_last_not_of(" \t\r") - first + 1));
}

outcome ctest_outcome(const junit_case& c) {
  // CTest: run (passed), fail, notrun (a skip: SKIP_RETURN_CODE, or a failed dependency), disabled.
  if (c.status == "run" && !c.failed) return outcome::passed;
  if (c.status == "notrun" || c.status == "disabled" || (c.skipped && !c.failed)) return outcome::skipped;
  return outcome::failed;
}

outcome case_outcome(const junit_case& c) {
  if (c.failed || c.status == "failed") return outcome::failed;
  if (c.skipped || c.status == "skipped") return outcome::skipped;
  // A status the runner does not write is not a pass.
  return c.status == "passed" ? outcome::passed : outcome::failed;
}

}  // namespace

const char* name_of(outcome o) {
  switch (o) {
    case outcome::passed: return "passed";
    case outcome::failed: return "failed";
    case outcome::skipped: return "skipped";
  }
  return "failed";
}

std::size_t unit_run::count(outcome o) const {
  return static_cast<std::size_t>(std::count_if(cases.begin(), cases.end(), [o](const unit_case& c) { return c.result == o; }));
}

std::string summary_facts::item(std::string_view key) const {
  for (const auto& [k, v] : items)
    if (k == key) return v;
  return "";
}

std::string gpu_name_from_nvidia_smi(std::string_view text) {
  // "|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |" (Persistence-M On/Off
  // after the name; older drivers pad differently, hence the spaces matched loosely).
  static const std::regex row(R"(^\|\s+\d+\s+(.+?)\s+(On|Off)\s+\|)");
  std::istringstream lines{std::string(text)};
  std::string line;
  std::smatch match;
  while (std::getline(lines, line))
    if (std::regex_search(line, match, row)) return match[1].str();
  return "";
}

summary_facts read_summary(std::string_view text) {
  summary_facts facts;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with("## ")) break;  // the header ends at the first section
    if (line.starts_with("**Verdict: ")) {
      std::string verdict = line.substr(11);
      if (verdict.ends_with("**")) verdict.resize(verdict.size() - 2);
      facts.verdict = trimmed(verdict);
    } else if (line.starts_with("- ")) {
      const std::size_t colon = line.find(": ");
      if (colon != std::string::npos) facts.items.emplace_back(trimmed(line.substr(2, colon - 2)), trimmed(line.substr(colon + 2)));
    }
  }
  return facts;
}

std::vector<ctest_test> ctest_tests_of(const std::vector<junit_suite>& suites) {
  std::vector<ctest_test> tests;
  for (const junit_suite& suite : suites)
    for (const junit_case& c : suite.cases)
      tests.push_back({c.name.empty() ? c.classname : c.name, ctest_outcome(c), c.seconds,
                       c.message.empty() && c.failed ? c.text : c.message, c.output});
  return tests;
}

unit_run unit_of(const std::vector<junit_suite>& suites, const std::string& file_stem) {
  unit_run unit;
  unit.name = file_stem;
  for (const junit_suite& suite : suites) {
    if (!suite.name.empty() && unit.cases.empty()) unit.name = suite.name;
    unit.seconds += suite.seconds;
    unit.processes += std::atoi(property_of(suite.properties, "processes").c_str());
    for (const junit_case& c : suite.cases) {
      unit_case u;
      // unit_report.cpp splits gtest's "Suite.Test/Param" at the first dot; a case of the unit's own
      // name as classname had no dot.
      u.name = c.classname.empty() || c.classname == unit.name ? c.name : c.classname + "." + c.name;
      u.result = case_outcome(c);
      u.seconds = c.seconds;
      u.message = c.failed && !c.text.empty() ? c.text : c.message;
      u.properties = c.properties;
      unit.cases.push_back(std::move(u));
    }
  }
  unit.family = family_of_unit(unit.name);
  return unit;
}

std::string family_of_unit(const std::string& unit_name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t dot; (dot = unit_name.find('.', start)) != std::string::npos; start = dot + 1)
    parts.push_back(unit_name.substr(start, dot - start));
  parts.push_back(unit_name.substr(start));
  if (parts.size() >= 3 && parts[0] == "sanitizer") return parts[2];
  return parts[0];
}

bool is_across_families(const std::string& family, const std::vector<std::string>& all_families) {
  if (family == "fixtures") return true;
  for (const std::string& other : all_families)
    if (other.size() > family.size() + 1 && other.compare(0, family.size() + 1, family + "_") == 0) return true;
  return false;
}

run_folder read_run_folder(const fs::path& dir) {
  run_folder run;
  run.dir = dir;

  if (const std::optional<std::string> junit = read_text(dir / "junit.xml")) {
    run.ctest = ctest_tests_of(parse_junit(*junit));
    if (run.ctest->empty()) run.problems.push_back("junit.xml holds no <testcase>");
  }
  for (const fs::path& file : files_ending(dir / "units", ".xml")) {
    const std::optional<std::string> text = read_text(file);
    const std::vector<junit_suite> suites = text ? parse_junit(*text) : std::vector<junit_suite>{};
    if (suites.empty()) {
      run.problems.push_back("units/" + file.filename().string() + ": no test suite could be read");
      continue;
    }
    run.units.push_back(unit_of(suites, file.stem().string()));
  }

  if (const std::optional<std::string> summary = read_text(dir / "summary.md")) run.summary = read_summary(*summary);
  run.gpu_name = run.summary.item("GPU");
  if (run.gpu_name == "none found") run.gpu_name.clear();
  if (run.gpu_name.empty())
    if (const std::optional<std::string> smi = read_text(dir / "nvidia-smi.txt")) run.gpu_name = gpu_name_from_nvidia_smi(*smi);
  run.perf = perf_report::read_perf_dir(dir);
  if (run.gpu_name.empty())
    for (const perf::judged_point& p : run.perf.points)
      if (!p.gpu_name.empty()) {
        run.gpu_name = p.gpu_name;
        break;
      }

  for (const fs::path& file : files_ending(dir / "failures", "")) run.failure_dumps.push_back(file.filename().string());
  std::error_code error;
  run.has_perf_html = fs::is_regular_file(dir / "perf.html", error);

  for (const fs::path& file : files_ending(dir, "_benchmark.csv")) {
    benchmark_result bench;
    bench.name = file.stem().string();
    if (const std::optional<std::string> text = read_text(file)) bench.table = parse_csv(*text);
    if (bench.table.header.empty()) run.problems.push_back(file.filename().string() + ": empty");
    if (fs::is_regular_file(dir / (bench.name + ".md"), error)) bench.markdown_file = bench.name + ".md";
    run.benchmarks.push_back(std::move(bench));
  }

  for (const char* name : {"summary.md", "junit.xml", "cases.xml", "ctest.log", "build.log", "nvidia-smi.txt",
                           "resources.json", "perf.html"})
    if (fs::is_regular_file(dir / name, error)) run.files.push_back(name);
  return run;
}

}  // namespace kc::run_report
