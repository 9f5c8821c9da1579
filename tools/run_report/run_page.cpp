#include "tools/run_report/run_page.hpp"

#include "tools/perf_report/html_text.hpp"
#include "tools/perf_report/perf_page.hpp"
#include "tools/run_report/page_sections.hpp"
#include "tools/run_report/page_text.hpp"
#include "tools/run_report/run_verdict.hpp"

#include <sstream>

namespace kc::run_report {

using perf_report::html_escape;

namespace {

// perf.html's sheet (the charts and tables need it) plus what only this page has.
std::string style_sheet() {
  return perf_report::perf_page_style_sheet() + R"(
.run-verdict { font-size: 28px; font-weight: 700; border-radius: 6px; padding: 10px 16px; margin: 12px 0 6px; }
.run-verdict.passed { background: #e6f4ea; color: #1e5e24; border-left: 6px solid #2e7d32; }
.run-verdict.failed { background: #fdecea; color: #8e1c1c; border-left: 6px solid #c62828; }
ul.reasons { margin: 4px 0 12px; color: #8e1c1c; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 10px 0; color: #3e4c59; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; }
nav.contents { margin: 14px 0; font-size: 13px; }
nav.contents a { margin-right: 14px; }
section { margin-top: 30px; }
section.family, section.benchmark { margin-top: 18px; }
h4 { font-size: 14px; margin: 14px 0 4px; }
td.bad, td.bad a { color: #c62828; font-weight: 600; }
tr.escaped td { background: #fdecea; }
article.failure { border: 1px solid #e4e7eb; border-left: 5px solid #c62828; border-radius: 4px; padding: 6px 12px; margin: 10px 0; }
article.failure dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
article.failure dt { font-weight: 600; color: #52606d; }
article.failure dd { margin: 0; }
.badge { background: #fff4e0; color: #7a4a00; border-radius: 4px; padding: 1px 6px; font-size: 12px; font-weight: 600; }
pre.message { background: #f5f7fa; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font-size: 12px; margin: 6px 0; }
code.replay { background: #f5f7fa; padding: 1px 4px; }
.scroll { overflow-x: auto; }
table.benchmark td, table.benchmark th { white-space: nowrap; }
.banner.problems { background: #fff4e0; border-color: #c27c0e; color: #7a4a00; font-weight: 400; }
)";
}

void header_html(std::ostringstream& html, const run_folder& run, const run_verdict& verdict, const page_options& options) {
  html << "<header>\n<h1>" << html_escape(options.title) << "</h1>\n<div id=\"verdict\" class=\"run-verdict "
       << (verdict.passed ? "passed" : "failed") << "\">" << (verdict.passed ? "PASSED" : "FAILED") << "</div>\n";
  if (!verdict.reasons.empty()) {
    html << "<ul class=\"reasons\">";
    for (const std::string& reason : verdict.reasons) html << "<li>" << html_escape(reason) << "</li>";
    html << "</ul>\n";
  }

  html << "<dl class=\"meta\"><dt>GPU</dt><dd id=\"gpu\">" << (run.gpu_name.empty() ? "not recorded" : html_escape(run.gpu_name))
       << "</dd>";
  for (const auto& [key, value] : run.summary.items)
    if (key != "GPU") html << "<dt>" << html_escape(key) << "</dt><dd>" << html_escape(value) << "</dd>";
  html << "</dl>\n";

  html << "<ul class=\"counts\">";
  if (run.ctest) {
    std::size_t passed = 0, failed = 0, skipped = 0;
    for (const ctest_test& t : *run.ctest)
      (t.result == outcome::passed ? passed : t.result == outcome::failed ? failed : skipped) += 1;
    html << "<li class=\"count\" id=\"ctest-counts\"><b>" << run.ctest->size() << "</b>CTest tests: " << passed << " passed, "
         << failed << " failed, " << skipped << " skipped</li>";
  } else {
    html << "<li class=\"count zero\" id=\"ctest-counts\"><b>\u2014</b>CTest tests: no junit.xml</li>";
  }
  std::size_t cases = 0, passed = 0, failed = 0, skipped = 0;
  int processes = 0;
  for (const unit_run& u : run.units) {
    cases += u.cases.size();
    passed += u.count(outcome::passed);
    failed += u.count(outcome::failed);
    skipped += u.count(outcome::skipped);
    processes += u.processes;
  }
  html << "<li class=\"count\" id=\"case-counts\"><b>" << cases << "</b>cases: " << passed << " passed, " << failed
       << " failed, " << skipped << " skipped (" << counted(run.units.size(), "unit", "units") << ", "
       << counted(static_cast<std::size_t>(processes), "process", "processes") << ")</li>";
  html << "<li class=\"count\"><b>" << run.perf.points.size() << "</b>perf points</li>";
  html << "<li class=\"count\"><b>" << run.benchmarks.size() << "</b>benchmark tables</li>";
  html << "</ul>\n";

  if (!run.problems.empty()) {
    html << "<div class=\"banner problems\">Read around " << counted(run.problems.size(), "problem", "problems") << ":<ul>";
    for (const std::string& problem : run.problems) html << "<li>" << html_escape(problem) << "</li>";
    html << "</ul></div>\n";
  }
  html << "<nav class=\"contents\"><a href=\"#failures\">failed cases</a><a href=\"#families\">families</a>"
          "<a href=\"#slowest\">slowest units</a><a href=\"#perf\">performance</a><a href=\"#benchmarks\">benchmarks</a>"
          "<a href=\"#files\">files</a></nav>\n</header>\n";
}

void files_html(std::ostringstream& html, const run_folder& run) {
  html << "<section id=\"files\">\n<h2>The run's files</h2>\n<ul>";
  for (const std::string& file : run.files)
    html << "<li><a href=\"" << html_escape(file) << "\">" << html_escape(file) << "</a></li>";
  if (!run.units.empty()) html << "<li>units/ (" << counted(run.units.size(), "unit", "units") << ")</li>";
  if (!run.failure_dumps.empty()) html << "<li>failures/ (" << counted(run.failure_dumps.size(), "data dump", "data dumps") << ")</li>";
  if (!run.perf.files.empty()) html << "<li>perf/ (" << counted(run.perf.files.size(), "file", "files") << ")</li>";
  html << "</ul>\n</section>\n";
}

}  // namespace

std::string run_page_html(const run_folder& run, const page_options& options) {
  const run_verdict verdict = verdict_of(run);
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
       << html_escape(options.title) << " \u2014 " << (verdict.passed ? "PASSED" : "FAILED")
       << (run.gpu_name.empty() ? "" : " \u2014 " + html_escape(run.gpu_name)) << "</title>\n<style>\n" << style_sheet()
       << "</style>\n</head>\n<body>\n<main>\n";
  header_html(html, run, verdict, options);
  html << failures_section_html(run) << families_section_html(run) << slowest_section_html(run) << perf_section_html(run)
       << benchmarks_section_html(run);
  files_html(html, run);
  html << "<footer>Written by kconform_run_report";
  if (!options.source.empty()) html << " from " << html_escape(options.source);
  html << ", from the run's recorded files only.</footer>\n</main>\n</body>\n</html>\n";
  return html.str();
}

}  // namespace kc::run_report
