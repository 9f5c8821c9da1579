#include "tools/perf_report/perf_page.hpp"

#include "tools/perf_report/family_chart.hpp"
#include "tools/perf_report/family_table.hpp"
#include "tools/perf_report/html_text.hpp"
#include "tools/perf_report/verdict_style.hpp"

#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace kc::perf_report {

namespace {

using families = std::map<std::string, std::vector<const perf::judged_point*>>;

families by_family(const perf_rows& rows) {
  families grouped;
  for (const perf::judged_point& p : rows.points) grouped[p.key.family].push_back(&p);
  return grouped;
}

// An id for a family's section: letters, digits, '-' and '_' only, so the #anchor needs no escaping.
std::string anchor_of(const std::string& family) {
  std::string id = "family-";
  for (unsigned char c : family) id += std::isalnum(c) || c == '-' || c == '_' ? static_cast<char>(c) : '-';
  return id;
}

}  // namespace

std::string perf_page_style_sheet() {
  std::ostringstream css;
  css << R"(:root { color-scheme: light; }
* { box-sizing: border-box; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #fff; color: #1f2933; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 0 0 6px; border-bottom: 2px solid #e4e7eb; padding-bottom: 4px; }
h2 .sub, .sub { color: #616e7c; font-weight: 400; font-size: 13px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.meta { color: #52606d; margin: 0 0 12px; }
.banner { border-left: 5px solid; border-radius: 4px; padding: 10px 14px; margin: 12px 0; font-weight: 600; }
.banner.planted { background: #fff4e0; border-color: #c27c0e; color: #7a4a00; }
.banner.malformed { background: #fdecea; border-color: #c62828; color: #8e1c1c; font-weight: 400; }
ul.counts { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 14px 0; }
.count { border: 1px solid #d9dee4; border-radius: 6px; padding: 6px 14px; min-width: 104px; }
.count b { display: block; font-size: 22px; line-height: 1.2; }
.count.zero { opacity: 0.45; }
.verdict { font-weight: 600; }
ul.attention { list-style: none; padding: 0; margin: 6px 0 0; columns: 2 28em; }
ul.attention li { padding: 1px 0; break-inside: avoid; }
ul.attention .verdict { display: inline-block; min-width: 7.5em; }
a { color: #1d4f91; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; color: #3e4c59; font-size: 12.5px; margin: 18px 0 4px; }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
section.family { margin-top: 30px; }
figure { margin: 6px 0 10px; break-inside: avoid; }
figcaption { color: #616e7c; font-size: 12px; }
svg.chart { display: block; max-width: 100%; height: auto; }
.tick-label { fill: #52606d; font-size: 11px; }
.point:hover rect.hover { fill: rgba(31, 41, 51, 0.07); }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e4e7eb; text-align: right; white-space: nowrap; vertical-align: top; }
th.text, td.text { text-align: left; white-space: normal; }
thead th { background: #f5f7fa; border-bottom: 2px solid #cbd2d9; font-weight: 600; }
td .sub { font-size: 11.5px; }
.none { color: #9aa5b1; }
table.malformed td { text-align: left; white-space: normal; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
footer { margin-top: 36px; color: #7b8794; font-size: 12px; }
@media print {
  body { font-size: 11px; }
  main { max-width: none; padding: 0; }
  tr { break-inside: avoid; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
@page { margin: 12mm; }
)";
  // The verdict colours, from the one table the chart also uses.
  for (perf::verdict v : all_verdicts) {
    const verdict_style s = style_of(v);
    css << ".verdict." << s.css_class << ", .count." << s.css_class << " b { color: " << s.colour << "; }\n";
    css << "tr." << s.css_class << " td { background: " << s.tint << "; }\n";
  }
  return css.str();
}

// A small icon per mark, drawn as in the chart (measurement marks in a neutral colour: the chart
// colours them by verdict).
std::string perf_legend_html() {
  auto item = [](const std::string& icon, const char* text) {
    return "<span><svg width=\"30\" height=\"20\" viewBox=\"0 0 30 20\" aria-hidden=\"true\">" + icon + "</svg>" + text +
           "</span>";
  };
  std::string html = "<div class=\"legend\">";
  html += item("<rect x=\"1\" y=\"0.5\" width=\"28\" height=\"19\" fill=\"#eef2f7\" stroke=\"#7b8794\" stroke-dasharray=\"3 2\"/>",
               "baseline median \u00b1 threshold");
  html += item("<rect x=\"3\" y=\"4\" width=\"24\" height=\"12\" fill=\"#c3cad3\"/>", "baseline q1\u2013q3");
  html += item("<line x1=\"15\" x2=\"15\" y1=\"0\" y2=\"20\" stroke=\"#323f4b\" stroke-width=\"2\"/>", "baseline median");
  html += item("<rect x=\"3\" y=\"7.5\" width=\"24\" height=\"5\" fill=\"#52606d\" fill-opacity=\"0.75\"/>", "measured q1\u2013q3");
  html += item("<circle cx=\"15\" cy=\"10\" r=\"5\" fill=\"#52606d\"/>", "measured median");
  html += item("<path d=\"M15 4 L21 10 L15 16 L9 10 Z\" fill=\"none\" stroke=\"#52606d\" stroke-width=\"1.8\"/>",
               "re-measure median");
  html += "<span>colour: verdict \u00b7 time per launch on a log axis, and the change against the baseline median on a linear strip</span></div>\n";
  return html;
}

std::string verdict_counts_html(const perf_rows& rows) {
  std::map<perf::verdict, int> counts;
  for (const perf::judged_point& p : rows.points) ++counts[p.result];
  std::ostringstream html;
  html << "<ul class=\"counts\">";
  for (perf::verdict v : all_verdicts) {
    const verdict_style s = style_of(v);
    html << "<li class=\"count " << s.css_class << (counts[v] == 0 ? " zero" : "") << "\"><b>" << counts[v] << "</b>"
         << perf::name_of(v) << "</li>";
  }
  html << "</ul>\n";
  return html.str();
}

std::string points_to_look_at_html(const perf_rows& rows, std::string (*anchor)(const std::string& family)) {
  std::ostringstream attention;
  // On a host of several GPUs, the card each point ran on: a slow card shows as its points.
  const bool name_cards = several_cards(rows);
  for (perf::verdict v : {perf::verdict::slow, perf::verdict::ambiguous, perf::verdict::fast})
    for (const perf::judged_point& p : rows.points) {
      if (p.result != v) continue;
      const std::string card = name_cards ? card_label(p) : std::string();
      attention << "<li><span class=\"verdict " << style_of(v).css_class << "\">" << perf::name_of(v) << " "
                << (p.base ? format_change(p.ratio()) : "") << "</span> <a href=\"#" << anchor(p.key.family) << "\">"
                << html_escape(p.key.str()) << "</a>" << (card.empty() ? "" : " on " + html_escape(card)) << "</li>\n";
    }
  if (attention.str().empty()) return "";
  return "<h3>Points to look at</h3>\n<ul class=\"attention\">\n" + attention.str() + "</ul>\n";
}

namespace {

void header_html(std::ostringstream& html, const perf_rows& rows, const families& grouped, const page_options& options) {
  std::set<std::string> gpus;
  for (const perf::judged_point& p : rows.points)
    if (!p.gpu_name.empty()) gpus.insert(p.gpu_name);
  std::string gpu_list;
  for (const std::string& gpu : gpus) gpu_list += (gpu_list.empty() ? "" : ", ") + html_escape(gpu);
  html << "<header>\n<h1>" << html_escape(options.title) << "</h1>\n<p class=\"meta\">" << (gpus.size() > 1 ? "GPUs: " : "GPU: ")
       << (gpu_list.empty() ? "not recorded" : gpu_list) << " \u00b7 " << rows.points.size() << " points in " << grouped.size()
       << (grouped.size() == 1 ? " family" : " families") << " \u00b7 " << rows.files.size()
       << (rows.files.size() == 1 ? " file" : " files") << "</p>\n";
  if (const std::string planted = planted_banner_text(rows); !planted.empty())
    html << "<div class=\"banner planted\">" << html_escape(planted) << "</div>\n";
  if (!rows.malformed.empty())
    html << "<div class=\"banner malformed\">" << rows.malformed.size()
         << (rows.malformed.size() == 1 ? " row was" : " rows were")
         << " malformed and left out: <a href=\"#malformed\">listed at the end</a>.</div>\n";
  html << verdict_counts_html(rows);
  // The points a reader came for, worst first, each linking to its family's chart.
  html << points_to_look_at_html(rows, anchor_of);
  html << "</header>\n";
}

void malformed_html(std::ostringstream& html, const perf_rows& rows) {
  if (rows.malformed.empty()) return;
  html << "<section id=\"malformed\" class=\"family\">\n<h2>Malformed rows <span class=\"sub\">" << rows.malformed.size()
       << ", not in the charts</span></h2>\n<table class=\"malformed\"><thead><tr><th class=\"text\">file</th>"
          "<th class=\"text\">line</th><th class=\"text\">row</th></tr></thead><tbody>\n";
  for (const malformed_row& m : rows.malformed)
    html << "<tr><td>" << html_escape(m.file) << "</td><td>" << m.line << "</td><td><code>" << html_escape(m.text)
         << "</code></td></tr>\n";
  html << "</tbody></table>\n</section>\n";
}

}  // namespace

std::string planted_banner_text(const perf_rows& rows) {
  std::set<double> fractions;
  for (const perf::judged_point& p : rows.points)
    if (p.planted_fraction > 0.0) fractions.insert(p.planted_fraction);
  if (fractions.empty()) return "";
  // Runs that planted different amounts (merged reports) show the range.
  std::string amount = format_percent(*fractions.rbegin());
  if (fractions.size() > 1) {
    std::string low = format_percent(*fractions.begin());
    low.pop_back();  // "5.0–10.0%", one percent sign
    amount = low + "\u2013" + amount;
  }
  return "planted slowdown of " + amount + " \u2014 SLOW verdicts are expected";
}

std::string perf_page_html(const perf_rows& rows, const page_options& options) {
  const families grouped = by_family(rows);
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
       << html_escape(options.title) << "</title>\n<style>\n" << perf_page_style_sheet() << "</style>\n</head>\n<body>\n<main>\n";
  header_html(html, rows, grouped, options);
  html << perf_legend_html();
  for (const auto& [family, points] : grouped) {
    int slow = 0;
    for (const perf::judged_point* p : points) slow += p->result == perf::verdict::slow;
    html << "<section class=\"family\" id=\"" << anchor_of(family) << "\">\n<h2>" << html_escape(family)
         << " <span class=\"sub\">" << points.size() << (points.size() == 1 ? " point" : " points");
    if (slow > 0) html << " \u00b7 " << slow << " SLOW";
    html << "</span></h2>\n<figure>\n" << family_chart_svg(points) << "\n</figure>\n" << family_table_html(points)
         << "</section>\n";
  }
  malformed_html(html, rows);
  html << "<footer>Written by kconform_perf_report";
  if (!options.source.empty()) html << " from " << html_escape(options.source);
  html << ". Verdict rule: docs/performance.md.</footer>\n</main>\n</body>\n</html>\n";
  return html.str();
}

}  // namespace kc::perf_report
