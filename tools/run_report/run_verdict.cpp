#include "tools/run_report/run_verdict.hpp"

namespace kc::run_report {

namespace {

std::string counted(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

run_verdict verdict_of(const run_folder& run) {
  run_verdict v;
  if (run.summary.verdict.starts_with("FAILED")) {
    const std::size_t colon = run.summary.verdict.find(": ");
    v.reasons.push_back("summary.md: " + (colon == std::string::npos ? run.summary.verdict : run.summary.verdict.substr(colon + 2)));
  }
  if (!run.ctest) {
    v.reasons.push_back("no junit.xml: the tests did not run (build.log says why)");
  } else if (run.ctest->empty()) {
    v.reasons.push_back("junit.xml lists no test: nothing ran");
  } else {
    std::size_t failed = 0;
    for (const ctest_test& t : *run.ctest) failed += t.result == outcome::failed;
    if (failed > 0) v.reasons.push_back(counted(failed, "CTest test failed", "CTest tests failed") + " (junit.xml)");
  }
  std::size_t failed_cases = 0;
  for (const unit_run& u : run.units) failed_cases += u.count(outcome::failed);
  if (failed_cases > 0) v.reasons.push_back(counted(failed_cases, "case failed", "cases failed") + " (units/)");
  v.passed = v.reasons.empty();
  return v;
}

}  // namespace kc::run_report
