// Every (n, TILE_WIDTH, block, grid) launch seed 002's report ran (KERNELS.md §3), as named cases.
#pragma once

#include "kernels/matmul/matmul.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace kc::matmul::testing {

struct report_case {
  const char* variant;  // the corrected variant that runs it
  int n;
  int tile_width;
  int block;
  int grid;  // per dimension, as the report launched it
  std::string name() const;  // "MM4N1024TW8B32G4"
  std::string unit() const { return "ReportCases"; }  // one process runs them all
  double cost() const { return 1.0 + static_cast<double>(n) * n * n / 0x1p24; }
};

void PrintTo(const report_case& c, std::ostream* os);

std::vector<report_case> report_cases();
// The grid (per dimension) the variant's launcher uses for a square shape.
int report_grid(const variant& v, const shape& s, const matmul_config& config);

}  // namespace kc::matmul::testing
