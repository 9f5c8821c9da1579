// What one grading run left in its folder (scripts/grade.sh): build.json, units/*.json or
// run/units/*.json as the runner writes them (tools/runner/unit_report.hpp, unit_json), and
// listed_units.tsv or run/listed_units.tsv (`kconform_runner list`). A file that is missing or malformed
// is recorded in `problems` and read around, never thrown on: the grade must still be written.
#pragma once

#include "fixtures/json_text.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kc::grade_report {

struct build_record {
  std::string status = "missing";  // ok, compile_error, link_error, signature_error, load_error
  std::string log;
  std::vector<std::string> libraries;      // library code found in the submission's .so
  std::vector<std::string> suite_symbols;  // the grader's symbols it defines or imports
  json::value traits;                      // informational

  bool ok() const { return status == "ok"; }
};

struct case_record {
  std::string unit;
  std::string name;    // gtest full name
  std::string status;  // passed, failed, skipped
  std::string message;
  double seconds = 0;
  std::vector<std::pair<std::string, std::string>> properties;

  // The property's text; "" when absent.
  std::string property(std::string_view key) const;
};

struct run_inputs {
  build_record build;
  std::vector<case_record> cases;  // units in file-name order, cases in each unit's order
  // Library code the grading processes found loaded or called at run time (the cases'
  // `runtime_libraries` properties, grading/library_watch.hpp), each once, in the order first seen:
  // "cuBLAS: /usr/local/cuda/lib/libcublas.so.13 (called from the submission: cublasSgemm_v2)".
  std::vector<std::string> runtime_libraries;
  double seconds = 0;              // the units' seconds
  // The units the grading program listed for the submission's declared traits, with their case
  // counts (grade.sh's run/listed_units.tsv, `kconform_runner list`); nullopt when not recorded. A
  // group it lists no case in is empty by the submission's declaration, not for want of a verdict.
  std::optional<std::vector<std::pair<std::string, int>>> listed_units;
  // Device memory beside the batch (run/memory_starved.rerun.tsv, scripts/rerun_memory_starved.sh): per
  // test (runner name) with cases that failed out of device memory on every run, "ran" where those
  // cases were run again alone after the batch (their verdicts in the unit reports are that run's), else
  // "not run: <why>".
  std::vector<std::pair<std::string, std::string>> memory_reruns;
  std::vector<std::string> problems;
};

run_inputs read_run_dir(const std::filesystem::path& run_dir);

// A property's text as a number; NaN when it is not one (empty, words, trailing text).
double number_of(const std::string& text);

}  // namespace kc::grade_report
