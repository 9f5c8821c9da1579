#include "tools/perf_report/page_command.hpp"

#include <fstream>

namespace kc::perf_report {

std::optional<page_command> parse_page_command(const std::vector<std::string>& args, std::string_view default_page,
                                               std::ostream& err) {
  page_command c;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (i + 1 >= args.size() || (flag != "--report-dir" && flag != "--out" && flag != "--title")) {
      err << (i + 1 >= args.size() && flag.starts_with("--") ? "missing value for " : "unknown argument ") << flag << "\n";
      return std::nullopt;
    }
    const std::string& value = args[++i];
    if (flag == "--report-dir") c.report_dir = value;
    if (flag == "--out") c.out = value;
    if (flag == "--title") c.title = value;
  }
  if (c.report_dir.empty()) {
    err << "--report-dir is required\n";
    return std::nullopt;
  }
  if (c.out.empty()) c.out = c.report_dir / std::string(default_page);
  return c;
}

bool write_page(const page_command& command, const std::string& html, std::string_view program, std::ostream& out,
                std::ostream& err) {
  std::ofstream file(command.out, std::ios::binary | std::ios::trunc);
  file << html;
  file.close();
  if (!file) {
    err << program << ": cannot write " << command.out.string() << "\n";
    return false;
  }
  out << command.out.string() << "\n";
  return true;
}

}  // namespace kc::perf_report
