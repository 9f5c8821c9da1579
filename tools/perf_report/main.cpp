// kconform_perf_report: the GPU run's performance page (report_cli.hpp has the command line).
#include "tools/perf_report/report_cli.hpp"

#include <iostream>

int main(int argc, char** argv) {
  return kc::perf_report::run_perf_report(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
