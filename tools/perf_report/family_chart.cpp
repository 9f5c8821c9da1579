#include "tools/perf_report/family_chart.hpp"

#include "tools/perf_report/html_text.hpp"
#include "tools/perf_report/log_time_axis.hpp"
#include "tools/perf_report/perf_rows.hpp"
#include "tools/perf_report/verdict_style.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace kc::perf_report {

namespace {

// Geometry in SVG user units; the page scales the chart to its width.
constexpr double chart_width = 1100;
constexpr double row_height = 28;
constexpr double header_height = 22;      // the column titles
constexpr double axis_height = 22;        // tick labels under (and, for tall charts, over) the rows
constexpr double label_left = 8;
constexpr double label_char_width = 7.0;  // 12 px sans-serif, generously: sizes the label column
constexpr double min_label_width = 150, max_label_width = 390;
constexpr double strip_width = 150;       // the change strip
constexpr double verdict_width = 128;     // "AMBIGUOUS +12.3%" at the right
constexpr double gap = 16;
constexpr std::size_t many_rows = 12;     // past this, tick labels go above the rows too

constexpr const char* baseline_ink = "#323f4b";
constexpr const char* band_fill = "#eef2f7";
constexpr const char* band_stroke = "#7b8794";
constexpr const char* base_iqr_fill = "#c3cad3";

std::string px(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

// A label cut to the column, with an ellipsis; the tooltip carries the whole of it.
std::string fitted_label(const std::string& label, double width) {
  const std::size_t fits = static_cast<std::size_t>(width / label_char_width);
  if (label.size() <= fits || fits < 2) return label;
  std::size_t cut = fits - 1;
  while (cut > 0 && (static_cast<unsigned char>(label[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return label.substr(0, cut) + "\u2026";
}

std::string tooltip(const perf::judged_point& p) {
  std::ostringstream t;
  t << p.key.str();
  if (const std::string card = card_label(p); !card.empty()) t << " on " << card;
  t << "\n" << perf::name_of(p.result);
  if (p.base) t << ": " << format_change(p.ratio()) << " against the baseline (threshold " << format_band(p.threshold) << ")";
  t << "\nmedian " << format_us(p.first.median_us) << " \u00b5s (q1 " << format_us(p.first.q1_us) << ", q3 "
    << format_us(p.first.q3_us) << ")";
  if (p.remeasure) t << "\nre-measure median " << format_us(p.remeasure->median_us) << " \u00b5s";
  if (p.base)
    t << "\nbaseline median " << format_us(p.base->median_us) << " \u00b5s (q1 " << format_us(p.base->q1_us) << ", q3 "
      << format_us(p.base->q3_us) << ")";
  else
    t << "\nno baseline for this point on this GPU";
  t << "\n" << p.first.samples << " samples \u00d7 batch " << p.first.batch;
  if (p.sm_clock_mhz > 0) t << ", SM clock " << p.sm_clock_mhz << " MHz";
  if (!p.gpu_name.empty()) t << "\n" << p.gpu_name;
  return html_escape(t.str());
}

// A horizontal bar from x0 to x1, at least wide enough to see.
void bar(std::ostringstream& svg, double x0, double x1, double cy, double height, const std::string& attributes) {
  if (x1 < x0) std::swap(x0, x1);
  if (x1 - x0 < 2) x0 = (x0 + x1) / 2 - 1, x1 = x0 + 2;
  svg << "<rect x=\"" << px(x0) << "\" y=\"" << px(cy - height / 2) << "\" width=\"" << px(x1 - x0) << "\" height=\""
      << px(height) << "\" " << attributes << "/>";
}

void median_dot(std::ostringstream& svg, double x, double cy, const std::string& colour) {
  svg << "<circle class=\"median\" cx=\"" << px(x) << "\" cy=\"" << px(cy) << "\" r=\"5\" fill=\"" << colour
      << "\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>";
}

void remeasure_diamond(std::ostringstream& svg, double x, double cy, const std::string& colour) {
  constexpr double r = 6;
  svg << "<path class=\"remeasure\" d=\"M" << px(x) << " " << px(cy - r) << " L" << px(x + r) << " " << px(cy) << " L" << px(x)
      << " " << px(cy + r) << " L" << px(x - r) << " " << px(cy) << " Z\" fill=\"none\" stroke=\"" << colour
      << "\" stroke-width=\"1.8\"/>";
}

void vertical_tick(std::ostringstream& svg, const char* css_class, double x, double cy, double half_height) {
  svg << "<line class=\"" << css_class << "\" x1=\"" << px(x) << "\" x2=\"" << px(x) << "\" y1=\"" << px(cy - half_height)
      << "\" y2=\"" << px(cy + half_height) << "\" stroke=\"" << baseline_ink << "\" stroke-width=\"2\"/>";
}

void tick_label(std::ostringstream& svg, double x, double y, const std::string& text) {
  svg << "<text class=\"tick-label\" x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"middle\" fill=\"#52606d\" "
      << "font-size=\"11\">" << html_escape(text) << "</text>";
}

// The change strip's linear scale: a median / baseline median of 1 ± half_width across the strip.
struct change_scale {
  double left = 0, right = 1, half_width = 0.1;
  double x_of(double ratio) const {
    const double share = std::clamp((ratio - 1.0) / half_width, -1.0, 1.0);
    return (left + right) / 2 + share * (right - left) / 2;
  }
  bool off_scale(double ratio) const { return std::fabs(ratio - 1.0) > half_width; }
};

std::string change_label(double change) {
  if (change == 0) return "0";
  char text[16];
  std::snprintf(text, sizeof text, "%s%.0f%%", change < 0 ? "\u2212" : "+", std::fabs(change) * 100);
  return text;
}

}  // namespace

std::vector<double> drawn_times_us(const perf::judged_point& p) {
  std::vector<double> times = {p.first.median_us, p.first.q1_us, p.first.q3_us};
  if (p.remeasure) times.push_back(p.remeasure->median_us);
  if (p.base) {
    times.insert(times.end(), {p.base->median_us, p.base->q1_us, p.base->q3_us, p.base->median_us * (1 + p.threshold),
                               p.base->median_us * (1 - p.threshold)});
  }
  return times;
}

double change_strip_half_width(const std::vector<const perf::judged_point*>& points) {
  double widest = 0.0;
  for (const perf::judged_point* p : points) {
    if (!p->base || p->base->median_us <= 0) continue;
    widest = std::max({widest, p->threshold, std::fabs(p->first.median_us / p->base->median_us - 1.0)});
    if (p->remeasure) widest = std::max(widest, std::fabs(p->remeasure->median_us / p->base->median_us - 1.0));
  }
  for (double half_width : {0.1, 0.2, 0.5})
    if (widest * 1.1 <= half_width) return half_width;  // 1.1: a marker at the edge stays inside the frame
  return 0.5;
}

std::string family_chart_svg(const std::vector<const perf::judged_point*>& points) {
  std::size_t longest_label = 0;
  std::vector<double> times;
  for (const perf::judged_point* p : points) {
    longest_label = std::max(longest_label, point_label(p->key).size());
    const std::vector<double> drawn = drawn_times_us(*p);
    times.insert(times.end(), drawn.begin(), drawn.end());
  }
  const double label_width = std::clamp(longest_label * label_char_width, min_label_width, max_label_width);
  const double verdict_left = chart_width - verdict_width;
  const change_scale strip{verdict_left - gap - strip_width, verdict_left - gap, change_strip_half_width(points)};
  const double plot_left = label_left + label_width + gap, plot_right = strip.left - 3.5 * gap;  // room for both axes' end labels
  const log_time_axis axis(times, plot_left, plot_right);
  const std::vector<axis_tick> ticks = axis.ticks();
  const double strip_ticks[] = {-strip.half_width, -strip.half_width / 2, 0.0, strip.half_width / 2, strip.half_width};

  const bool labels_on_top = points.size() > many_rows;
  const double rows_top = header_height + (labels_on_top ? axis_height : 0);
  const double rows_bottom = rows_top + points.size() * row_height;
  const double height = rows_bottom + axis_height;

  std::ostringstream svg;
  svg << "<svg class=\"chart\" viewBox=\"0 0 " << px(chart_width) << " " << px(height) << "\" width=\"100%\" role=\"img\" "
      << "aria-label=\"each point's time per launch against its baseline, log scale\" xmlns=\"http://www.w3.org/2000/svg\" "
      << "font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\" font-size=\"12\">";

  // Column titles.
  svg << "<g class=\"column-titles\" fill=\"#3e4c59\" font-weight=\"600\">"
      << "<text x=\"" << px(label_left) << "\" y=\"14\">point</text>"
      << "<text x=\"" << px((plot_left + plot_right) / 2) << "\" y=\"14\" text-anchor=\"middle\">time per launch (log scale)</text>"
      << "<text x=\"" << px((strip.left + strip.right) / 2) << "\" y=\"14\" text-anchor=\"middle\">change vs baseline</text>"
      << "<text x=\"" << px(verdict_left) << "\" y=\"14\">verdict</text></g>";

  // Stripes first, then gridlines over them, then the points' marks over both.
  for (std::size_t i = 0; i < points.size(); ++i)
    if (i % 2 == 1)
      svg << "<rect x=\"0\" y=\"" << px(rows_top + i * row_height) << "\" width=\"" << px(chart_width) << "\" height=\""
          << px(row_height) << "\" fill=\"#f5f6f8\"/>";
  for (const axis_tick& tick : ticks)
    svg << "<line class=\"" << (tick.decade ? "grid decade" : "grid") << "\" x1=\"" << px(tick.x) << "\" x2=\"" << px(tick.x)
        << "\" y1=\"" << px(rows_top) << "\" y2=\"" << px(rows_bottom) << "\" stroke=\"" << (tick.decade ? "#b9c0c9" : "#e3e6ea")
        << "\" stroke-width=\"1\"/>";
  for (double change : strip_ticks) {
    const double x = strip.x_of(1.0 + change);
    svg << "<line class=\"grid\" x1=\"" << px(x) << "\" x2=\"" << px(x) << "\" y1=\"" << px(rows_top) << "\" y2=\""
        << px(rows_bottom) << "\" stroke=\"" << (change == 0 ? "#8a939e" : "#e3e6ea") << "\" stroke-width=\"1\"/>";
  }
  for (double left : {plot_left, strip.left}) {
    const double right = left == plot_left ? plot_right : strip.right;
    svg << "<line x1=\"" << px(left) << "\" x2=\"" << px(right) << "\" y1=\"" << px(rows_bottom) << "\" y2=\"" << px(rows_bottom)
        << "\" stroke=\"#8a939e\" stroke-width=\"1\"/>";
  }
  for (double y : {rows_bottom + 15, rows_top - 7}) {
    if (y < rows_top && !labels_on_top) continue;
    for (const axis_tick& tick : ticks)
      if (!tick.label.empty()) tick_label(svg, tick.x, y, tick.label);
    for (double change : {-strip.half_width, 0.0, strip.half_width})
      tick_label(svg, strip.x_of(1.0 + change), y, change_label(change));
  }

  for (std::size_t i = 0; i < points.size(); ++i) {
    const perf::judged_point& p = *points[i];
    const verdict_style style = style_of(p.result);
    const std::string colour = style.colour;
    const double cy = rows_top + (i + 0.5) * row_height;
    svg << "<g class=\"point " << style.css_class << "\" data-key=\"" << html_escape(p.key.str()) << "\">";
    svg << "<title>" << tooltip(p) << "</title>";
    // Transparent but painted: hovering anywhere on the row shows the tooltip.
    svg << "<rect class=\"hover\" x=\"0\" y=\"" << px(cy - row_height / 2) << "\" width=\"" << px(chart_width)
        << "\" height=\"" << px(row_height) << "\" fill=\"transparent\"/>";
    svg << "<text class=\"label\" x=\"" << px(label_left) << "\" y=\"" << px(cy + 4) << "\" fill=\"#1f2933\">"
        << html_escape(fitted_label(point_label(p.key), label_width)) << "</text>";

    // The time axis: baseline under the measurement.
    if (p.base) {
      bar(svg, axis.x_of(p.base->median_us * (1 - p.threshold)), axis.x_of(p.base->median_us * (1 + p.threshold)), cy, 20,
          std::string("class=\"threshold-band\" fill=\"") + band_fill + "\" stroke=\"" + band_stroke +
              "\" stroke-width=\"1\" stroke-dasharray=\"3 2\"");
      bar(svg, axis.x_of(p.base->q1_us), axis.x_of(p.base->q3_us), cy, 12,
          std::string("class=\"base-iqr\" fill=\"") + base_iqr_fill + "\"");
    }
    bar(svg, axis.x_of(p.first.q1_us), axis.x_of(p.first.q3_us), cy, 5,
        "class=\"iqr\" fill=\"" + colour + "\" fill-opacity=\"0.75\"");
    if (p.base) vertical_tick(svg, "base-median", axis.x_of(p.base->median_us), cy, 10);
    if (p.remeasure) remeasure_diamond(svg, axis.x_of(p.remeasure->median_us), cy, colour);
    median_dot(svg, axis.x_of(p.first.median_us), cy, colour);

    // The change strip: the same medians relative to the baseline median, at the 0 line.
    if (p.base && p.base->median_us > 0) {
      const double base = p.base->median_us;
      bar(svg, strip.x_of(1 - p.threshold), strip.x_of(1 + p.threshold), cy, 20,
          std::string("class=\"threshold-band\" fill=\"") + band_fill + "\" stroke=\"" + band_stroke +
              "\" stroke-width=\"1\" stroke-dasharray=\"3 2\"");
      bar(svg, strip.x_of(p.base->q1_us / base), strip.x_of(p.base->q3_us / base), cy, 12,
          std::string("class=\"base-iqr\" fill=\"") + base_iqr_fill + "\"");
      bar(svg, strip.x_of(p.first.q1_us / base), strip.x_of(p.first.q3_us / base), cy, 5,
          "class=\"iqr\" fill=\"" + colour + "\" fill-opacity=\"0.75\"");
      vertical_tick(svg, "base-median", strip.x_of(1.0), cy, 10);
      if (p.remeasure) remeasure_diamond(svg, strip.x_of(p.remeasure->median_us / base), cy, colour);
      const double ratio = p.first.median_us / base;
      median_dot(svg, strip.x_of(ratio), cy, colour);
      if (strip.off_scale(ratio))  // an arrowhead past the edge: the change is larger than the strip
        svg << "<path class=\"off-scale\" d=\"M" << px(ratio > 1 ? strip.right + 8 : strip.left - 8) << " " << px(cy) << " L"
            << px(ratio > 1 ? strip.right + 2 : strip.left - 2) << " " << px(cy - 4) << " L"
            << px(ratio > 1 ? strip.right + 2 : strip.left - 2) << " " << px(cy + 4) << " Z\" fill=\"" << colour << "\"/>";
    }

    svg << "<text class=\"verdict\" x=\"" << px(verdict_left) << "\" y=\"" << px(cy + 4) << "\" fill=\"" << colour << "\""
        << (p.result == perf::verdict::slow ? " font-weight=\"700\"" : "") << ">" << perf::name_of(p.result);
    if (p.base) svg << " " << format_change(p.ratio());
    svg << "</text></g>";
  }
  svg << "</svg>";
  return svg.str();
}

}  // namespace kc::perf_report
