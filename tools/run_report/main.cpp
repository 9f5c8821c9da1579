// kconform_run_report: the GPU run's report page (run_report_cli.hpp has the command line).
#include "tools/run_report/run_report_cli.hpp"

#include <iostream>

int main(int argc, char** argv) {
  return kc::run_report::run_run_report(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
