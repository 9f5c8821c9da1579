#include "tools/run_report/page_text.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace kc::run_report {

std::string element_id(std::string_view prefix, std::string_view name) {
  std::string id(prefix);
  std::uint32_t hash = 2166136261u;  // FNV-1a: stable across runs and machines, so links can be shared
  for (const unsigned char c : name) {
    id += std::isalnum(c) || c == '-' || c == '_' ? static_cast<char>(c) : '-';
    hash = (hash ^ c) * 16777619u;
  }
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "-%08x", hash);
  return id + suffix;
}

std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string format_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, seconds >= 100 ? "%.0f" : "%.2f", seconds);
  return text;
}

std::string last_lines(std::string_view text, std::size_t lines) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  std::size_t start = text.size(), kept = 0;
  while (start > 0 && kept < lines) {
    const std::size_t newline = text.rfind('\n', start - 1);
    ++kept;
    start = newline == std::string_view::npos ? 0 : newline;
    if (newline == std::string_view::npos) break;
  }
  if (start == 0) return std::string(text);
  std::size_t dropped = 1;
  for (std::size_t i = 0; i < start; ++i) dropped += text[i] == '\n';
  return "(" + counted(dropped, "line", "lines") + " before these)\n" + std::string(text.substr(start + 1));
}

}  // namespace kc::run_report
