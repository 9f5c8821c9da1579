#include "tools/runner/sanitizer_output.hpp"

#include "fixtures/case_progress.hpp"

namespace kc::runner {

std::size_t hazard_head_at(const std::string& line) {
  // Anywhere in the line, not only at its start: text the submission wrote into the channel without a
  // newline is glued in front of the tool's next report, and must not hide it (forged heads only cost
  // the forger).
  const std::string prefix = "========= ";
  for (std::size_t at = line.find(prefix); at != std::string::npos; at = line.find(prefix, at + 1)) {
    const std::size_t head = at + prefix.size();
    if (head >= line.size() || line[head] == ' ') continue;
    for (const char* kind : {"Invalid ", "Error", "Warning", "Uninitialized", "Leaked", "Program hit", "Barrier",
                             "Misaligned", "Out of range", "Address ", "Host API", "Malloc", "Free", "Race"})
      if (line.compare(head, std::char_traits<char>::length(kind), kind) == 0) return at;
  }
  return std::string::npos;
}

bool is_hazard_head(const std::string& line) { return hazard_head_at(line) != std::string::npos; }

namespace {

// The length of the valid UTF-8 sequence at text[at] and its code point; 0 if it is not one (a stray
// continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut short).
std::size_t utf8_sequence(const std::string& text, std::size_t at, char32_t& code) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(at);
  const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || at + length > text.size()) return 0;
  code = length == 1 ? lead : lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(at + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(at + k) & 0x3F);
  }
  static constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

bool shown_as_is(char32_t code) {
  if (code == '\t') return true;
  if (code < 0x20 || (code >= 0x7F && code < 0xA0)) return false;                  // C0, DEL, C1
  if ((code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069)) return false;  // bidi
  return true;
}

}  // namespace

std::string shown_text(const std::string& text, std::size_t limit) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    char32_t code = 0;
    const std::size_t length = utf8_sequence(text, at, code);
    const std::size_t taken = length == 0 ? 1 : length;
    const bool as_is = length != 0 && shown_as_is(code);
    if (out.size() + (as_is ? taken : 1) > limit) break;
    if (as_is) out.append(text, at, taken);
    else out += '?';
    at += taken;
  }
  if (at < text.size()) out += " [...]";
  return out;
}

std::optional<tool_marker> parse_tool_marker(const std::string& line) {
  const std::string start = progress::tool_case_start_marker;
  if (const std::size_t at = line.find(start); at != std::string::npos) return tool_marker{line.substr(at + start.size())};
  if (line.find(progress::tool_program_end_marker) != std::string::npos) return tool_marker{};
  return std::nullopt;
}

}  // namespace kc::runner
