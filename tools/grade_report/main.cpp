// kconform_grade_report: a grading run's results for Gradescope, the student and the class
// (grade_cli.hpp has the command line).
#include "tools/grade_report/grade_cli.hpp"

#include <iostream>

int main(int argc, char** argv) {
  return kc::grade_report::run_grade_report(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
