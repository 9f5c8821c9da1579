#include "tools/grade_report/report_text.hpp"

#include "fixtures/json_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace kc::grade_report {

std::string clip(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  std::size_t cut = limit;
  // Back off over UTF-8 continuation bytes (10xxxxxx) so no character is split.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "\n[... " + std::to_string(text.size() - cut) + " more bytes cut]";
}

std::string shell_word(std::string_view s, bool always) {
  const bool safe = !always && !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_-./=:,+@%").find(c) != std::string_view::npos;
  });
  if (safe) return std::string(s);
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string csv_field(std::string_view s) {
  const bool quote = s.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quote) return std::string(s);
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string fenced(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  std::string body(text);
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + "\n" + body + fence + "\n";
}

double round2(double x) { return std::round(x * 100.0) / 100.0 + 0.0; }  // + 0.0: no "-0"

std::string score_text(double x) { return json::format_number(round2(x)); }

}  // namespace kc::grade_report
