// What the report pages' command lines share (kconform_perf_report, kconform_run_report):
//
//   <program> --report-dir DIR [--out FILE] [--title TEXT]
//
// the flags read the same way, and the page written to FILE (default DIR/<default page name>) with
// its path printed.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace kc::perf_report {

struct page_command {
  std::filesystem::path report_dir;
  std::filesystem::path out;  // DIR/<default page name> unless --out
  std::string title;          // "" unless --title
};

// nullopt on an unknown flag, a flag without its value or no --report-dir; `err` says which.
std::optional<page_command> parse_page_command(const std::vector<std::string>& args, std::string_view default_page,
                                               std::ostream& err);

// Writes `html` to command.out and prints the path to `out`; false (and a message naming `program`)
// when the file cannot be written.
bool write_page(const page_command& command, const std::string& html, std::string_view program, std::ostream& out,
                std::ostream& err);

}  // namespace kc::perf_report
