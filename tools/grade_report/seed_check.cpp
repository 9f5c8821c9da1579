#include "tools/grade_report/seed_check.hpp"

#include <string>

namespace kc::grade_report {

int fail_cases_with_another_seed(run_inputs* run, std::uint64_t run_seed) {
  int failed = 0;
  const std::string expected = std::to_string(run_seed);
  for (case_record& c : run->cases) {
    const std::string recorded = c.property("seed");
    if (recorded.empty() || recorded == expected) continue;
    c.status = "failed";
    c.message = "this case ran with seed " + recorded + ", not the grading run's seed " + expected +
                ": its inputs were not the ones the grader chose (KCONFORM_SEED was changed in the grading process)" +
                (c.message.empty() ? std::string() : "\n" + c.message);
    ++failed;
  }
  return failed;
}

}  // namespace kc::grade_report
