#include "tools/run_report/run_report_cli.hpp"

#include "tools/perf_report/page_command.hpp"
#include "tools/run_report/run_folder.hpp"
#include "tools/run_report/run_page.hpp"

#include <filesystem>
#include <optional>

namespace kc::run_report {

namespace {

constexpr const char* usage = "usage: kconform_run_report --report-dir DIR [--out FILE] [--title TEXT]\n";

}  // namespace

int run_run_report(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::optional<perf_report::page_command> command = perf_report::parse_page_command(args, "report.html", err);
  if (!command) {
    err << usage;
    return exit_bad_arguments;
  }
  std::error_code error;
  if (!std::filesystem::is_directory(command->report_dir, error)) {
    err << "kconform_run_report: " << command->report_dir.string() << " is not a folder; nothing written\n";
    return exit_no_report_dir;
  }
  page_options page;
  if (!command->title.empty()) page.title = command->title;
  page.source = command->report_dir.string();
  const std::string html = run_page_html(read_run_folder(command->report_dir), page);
  return perf_report::write_page(*command, html, "kconform_run_report", out, err) ? exit_written : exit_write_failed;
}

}  // namespace kc::run_report
