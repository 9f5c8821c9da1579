#include "tools/perf_report/report_cli.hpp"

#include "tools/perf_report/page_command.hpp"
#include "tools/perf_report/perf_page.hpp"
#include "tools/perf_report/perf_rows.hpp"

#include <optional>

namespace kc::perf_report {

namespace {

constexpr const char* usage = "usage: kconform_perf_report --report-dir DIR [--out FILE] [--title TEXT]\n";

}  // namespace

int run_perf_report(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::optional<page_command> command = parse_page_command(args, "perf.html", err);
  if (!command) {
    err << usage;
    return exit_bad_arguments;
  }
  const perf_rows rows = read_perf_dir(command->report_dir);
  if (rows.points.empty()) {
    err << "kconform_perf_report: no perf rows in " << (command->report_dir / "perf").string();
    if (!rows.malformed.empty()) err << " (" << rows.malformed.size() << " malformed)";
    err << "; nothing written\n";
    return exit_no_perf_rows;
  }
  page_options page;
  if (!command->title.empty()) page.title = command->title;
  page.source = (command->report_dir / "perf").string();
  return write_page(*command, perf_page_html(rows, page), "kconform_perf_report", out, err) ? exit_written
                                                                                             : exit_write_failed;
}

}  // namespace kc::perf_report
