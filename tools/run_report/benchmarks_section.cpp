// The benchmarks section (page_sections.hpp): each benchmark's CSV as it was written, every column,
// since the columns differ by family (GB/s for a reduction, GFLOP/s for a product).
#include "tools/perf_report/html_text.hpp"
#include "tools/run_report/page_sections.hpp"
#include "tools/run_report/page_text.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace kc::run_report {

using perf_report::html_escape;

namespace {

// Numbers line up on the right, words on the left.
bool is_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return *end == '\0';
}

void table_html(std::ostringstream& html, const csv_table& table) {
  html << "<div class=\"scroll\"><table class=\"benchmark\"><thead><tr>";
  for (const std::string& column : table.header) html << "<th>" << html_escape(column) << "</th>";
  html << "</tr></thead><tbody>\n";
  for (const std::vector<std::string>& row : table.rows) {
    html << "<tr>";
    for (std::size_t i = 0; i < std::max(row.size(), table.header.size()); ++i) {
      const std::string cell = i < row.size() ? row[i] : "";
      html << "<td" << (is_number(cell) ? "" : " class=\"text\"") << ">" << html_escape(cell) << "</td>";
    }
    html << "</tr>\n";
  }
  html << "</tbody></table></div>\n";
}

}  // namespace

std::string benchmarks_section_html(const run_folder& run) {
  std::ostringstream html;
  html << "<section id=\"benchmarks\">\n<h2>Benchmarks <span class=\"sub\">" << counted(run.benchmarks.size(), "table", "tables")
       << "</span></h2>\n";
  if (run.benchmarks.empty())
    html << "<p class=\"none\">No benchmark tables recorded: the folder has no *_benchmark.csv (the benchmarks did not "
            "run, or were filtered out).</p>\n";
  for (const benchmark_result& b : run.benchmarks) {
    html << "<section class=\"benchmark\" id=\"" << element_id("benchmark-", b.name) << "\">\n<h3>" << html_escape(b.name)
         << " <span class=\"sub\">" << counted(b.table.rows.size(), "row", "rows") << "</span></h3>\n";
    if (!b.markdown_file.empty())
      html << "<p>Conditions, method and the benchmark's own tables: <a href=\"" << html_escape(b.markdown_file) << "\">"
           << html_escape(b.markdown_file) << "</a>.</p>\n";
    if (b.table.header.empty()) html << "<p class=\"none\">" << html_escape(b.name) << ".csv is empty.</p>\n";
    else table_html(html, b.table);
    html << "</section>\n";
  }
  html << "</section>\n";
  return html.str();
}

}  // namespace kc::run_report
