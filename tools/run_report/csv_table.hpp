// A CSV file as the benchmarks write it (benchmarks/benchmark_output.hpp): a header line, then rows;
// fields with commas or quotes are double-quoted, "" inside for a quote (RFC 4180). A row with fewer
// fields than the header (a benchmark killed mid-row) keeps the fields it has.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kc::run_report {

struct csv_table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

csv_table parse_csv(std::string_view text);

}  // namespace kc::run_report
