#include "tools/run_report/run_report_cli.hpp"

#include "tools/run_report/run_folder.hpp"
#include "tools/run_report/run_page.hpp"

#include <filesystem>
#include <fstream>
#include <optional>

namespace kc::run_report {

namespace {

constexpr const char* usage = "usage: kconform_run_report --report-dir DIR [--out FILE] [--title TEXT]\n";

struct options {
  std::filesystem::path report_dir;
  std::filesystem::path out;
  page_options page;
};

std::optional<options> parse_options(const std::vector<std::string>& args, std::ostream& err) {
  options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (i + 1 >= args.size() || (flag != "--report-dir" && flag != "--out" && flag != "--title")) {
      err << (i + 1 >= args.size() && flag.starts_with("--") ? "missing value for " : "unknown argument ") << flag << "\n";
      return std::nullopt;
    }
    const std::string& value = args[++i];
    if (flag == "--report-dir") o.report_dir = value;
    if (flag == "--out") o.out = value;
    if (flag == "--title") o.page.title = value;
  }
  if (o.report_dir.empty()) {
    err << "--report-dir is required\n";
    return std::nullopt;
  }
  if (o.out.empty()) o.out = o.report_dir / "report.html";
  o.page.source = o.report_dir.string();
  return o;
}

}  // namespace

int run_run_report(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::optional<options> o = parse_options(args, err);
  if (!o) {
    err << usage;
    return exit_bad_arguments;
  }
  std::error_code error;
  if (!std::filesystem::is_directory(o->report_dir, error)) {
    err << "kconform_run_report: " << o->report_dir.string() << " is not a folder; nothing written\n";
    return exit_no_report_dir;
  }
  const std::string html = run_page_html(read_run_folder(o->report_dir), o->page);
  std::ofstream file(o->out, std::ios::binary | std::ios::trunc);
  file << html;
  file.close();
  if (!file) {
    err << "kconform_run_report: cannot write " << o->out.string() << "\n";
    return exit_write_failed;
  }
  out << o->out.string() << "\n";
  return exit_written;
}

}  // namespace kc::run_report
