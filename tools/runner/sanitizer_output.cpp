#include "tools/runner/sanitizer_output.hpp"

#include "fixtures/case_progress.hpp"

namespace kc::runner {

bool is_hazard_head(const std::string& line) {
  // Anywhere in the line, not only at its start: text the submission wrote into the channel without a
  // newline is glued in front of the tool's next report, and must not hide it (forged heads only cost
  // the forger).
  const std::string prefix = "========= ";
  for (std::size_t at = line.find(prefix); at != std::string::npos; at = line.find(prefix, at + 1)) {
    const std::size_t head = at + prefix.size();
    if (head >= line.size() || line[head] == ' ') continue;
    for (const char* kind : {"Invalid ", "Error", "Warning", "Uninitialized", "Leaked", "Program hit", "Barrier",
                             "Misaligned", "Out of range", "Address ", "Host API", "Malloc", "Free", "Race"})
      if (line.compare(head, std::char_traits<char>::length(kind), kind) == 0) return true;
  }
  return false;
}

std::optional<tool_marker> parse_tool_marker(const std::string& line) {
  const std::string start = progress::tool_case_start_marker;
  if (line.rfind(start, 0) == 0) return tool_marker{line.substr(start.size())};
  if (line.rfind(progress::tool_program_end_marker, 0) == 0) return tool_marker{};
  return std::nullopt;
}

}  // namespace kc::runner
