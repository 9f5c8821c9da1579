#include "tools/perf_report/family_table.hpp"

#include "tools/perf_report/html_text.hpp"
#include "tools/perf_report/perf_rows.hpp"
#include "tools/perf_report/verdict_style.hpp"

#include <sstream>

namespace kc::perf_report {

namespace {

constexpr const char* no_value = "<span class=\"none\">\u2014</span>";

}  // namespace

std::string family_table_html(const std::vector<const perf::judged_point*>& points) {
  std::ostringstream html;
  // On a host of several GPUs each point says which card it ran on.
  const bool name_cards = several_cards(points);
  html << "<table class=\"points\">\n<thead><tr><th class=\"text\">point</th>"
       << (name_cards ? "<th class=\"text\">GPU</th>" : "") << "<th>median \u00b5s</th><th>q1\u2013q3 \u00b5s</th>"
          "<th>baseline median \u00b5s</th><th>ratio</th><th>threshold</th><th class=\"text\">verdict</th><th>samples</th>"
          "<th>batch</th><th>SM clock</th></tr></thead>\n<tbody>\n";
  for (const perf::judged_point* p : points) {
    const verdict_style style = style_of(p->result);
    html << "<tr class=\"" << style.css_class << "\" data-key=\"" << html_escape(p->key.str()) << "\">";
    html << "<td class=\"text\">" << html_escape(point_label(p->key)) << "</td>";
    if (name_cards) html << "<td class=\"text\">" << html_escape(card_label(*p)) << "</td>";
    html << "<td>" << format_us(p->first.median_us);
    if (p->remeasure) html << "<br><span class=\"sub\">re-measure " << format_us(p->remeasure->median_us) << "</span>";
    html << "</td>";
    html << "<td>" << format_us(p->first.q1_us) << "\u2013" << format_us(p->first.q3_us) << "</td>";
    if (p->base)
      html << "<td>" << format_us(p->base->median_us) << "</td><td>" << format_change(p->ratio()) << "</td><td>"
           << format_band(p->threshold) << "</td>";
    else
      html << "<td>" << no_value << "</td><td>" << no_value << "</td><td>" << no_value << "</td>";
    html << "<td class=\"text\"><span class=\"verdict " << style.css_class << "\">" << perf::name_of(p->result)
         << "</span></td>";
    html << "<td>" << p->first.samples << "</td><td>" << p->first.batch << "</td><td>";
    if (p->sm_clock_mhz > 0)
      html << p->sm_clock_mhz << " MHz";
    else
      html << no_value;
    html << "</td></tr>\n";
  }
  html << "</tbody>\n</table>\n";
  return html.str();
}

}  // namespace kc::perf_report
