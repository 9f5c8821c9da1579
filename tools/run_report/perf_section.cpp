// The performance section (page_sections.hpp): tools/perf_report's charts and tables, the same
// functions perf.html draws with, so the two pages cannot disagree about a point.
#include "tools/perf_report/family_chart.hpp"
#include "tools/perf_report/family_table.hpp"
#include "tools/perf_report/html_text.hpp"
#include "tools/perf_report/perf_page.hpp"
#include "tools/run_report/page_sections.hpp"
#include "tools/run_report/page_text.hpp"

#include <map>
#include <sstream>

namespace kc::run_report {

using perf_report::html_escape;

namespace {
std::string family_anchor(const std::string& family) { return element_id("perf-", family); }
}  // namespace

std::string perf_section_html(const run_folder& run) {
  const perf_report::perf_rows& rows = run.perf;
  std::ostringstream html;
  html << "<section id=\"perf\">\n<h2>Performance <span class=\"sub\">"
       << counted(rows.points.size(), "point", "points") << " against the stored baseline</span></h2>\n";
  if (!rows.malformed.empty())
    html << "<div class=\"banner malformed\">" << counted(rows.malformed.size(), "perf row was", "perf rows were")
         << " malformed and left out (perf.html lists them).</div>\n";
  if (rows.points.empty()) {
    html << "<p class=\"none\">No perf rows recorded: "
         << (rows.files.empty() ? "perf/ has no .tsv file (the perf tests did not run, or were filtered out)."
                                : "perf/ has files but no readable row.")
         << "</p>\n</section>\n";
    return html.str();
  }
  if (run.has_perf_html) html << "<p>The same charts on a page of their own: <a href=\"perf.html\">perf.html</a>.</p>\n";
  if (const std::string planted = perf_report::planted_banner_text(rows); !planted.empty())
    html << "<div class=\"banner planted\">" << html_escape(planted) << "</div>\n";

  std::map<std::string, std::vector<const perf::judged_point*>> families;
  for (const perf::judged_point& p : rows.points) families[p.key.family].push_back(&p);
  // The counts and the points to look at, worst first, as perf.html's header draws them.
  html << perf_report::verdict_counts_html(rows) << perf_report::points_to_look_at_html(rows, family_anchor);

  html << perf_report::perf_legend_html();
  for (const auto& [family, points] : families)
    html << "<section class=\"family\" id=\"" << element_id("perf-", family) << "\">\n<h3>" << html_escape(family)
         << " <span class=\"sub\">" << counted(points.size(), "point", "points") << "</span></h3>\n<figure>\n"
         << perf_report::family_chart_svg(points) << "\n</figure>\n" << perf_report::family_table_html(points) << "</section>\n";
  html << "</section>\n";
  return html.str();
}

}  // namespace kc::run_report
