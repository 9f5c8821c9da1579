#include "tools/perf_report/html_text.hpp"

#include <cmath>
#include <cstdio>

namespace kc::perf_report {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string format_us(double us) {
  char text[48];
  const double magnitude = std::fabs(us);
  // Four significant figures without switching to exponents for the times the suite measures.
  const int decimals = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3 : 4;
  std::snprintf(text, sizeof text, "%.*f", decimals, us);
  return text;
}

std::string format_change(double ratio) {
  const double percent = (ratio - 1.0) * 100.0;
  char text[48];
  // U+2212 (minus sign) lines up with "+" in a table column; "-0.0" would read as a slowdown sign.
  if (percent < 0 && std::fabs(percent) >= 0.05)
    std::snprintf(text, sizeof text, "\u2212%.1f%%", -percent);
  else
    std::snprintf(text, sizeof text, "+%.1f%%", std::fabs(percent));
  return text;
}

std::string format_band(double threshold) {
  char text[48];
  std::snprintf(text, sizeof text, "\u00b1%.1f%%", threshold * 100.0);
  return text;
}

std::string format_percent(double fraction) {
  char text[48];
  std::snprintf(text, sizeof text, "%.1f%%", fraction * 100.0);
  return text;
}

}  // namespace kc::perf_report
