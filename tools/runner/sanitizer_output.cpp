#include "tools/runner/sanitizer_output.hpp"

#include "fixtures/case_progress.hpp"

namespace kc::runner {

bool is_hazard_head(const std::string& line) {
  const std::string prefix = "========= ";
  if (line.rfind(prefix, 0) != 0 || line.size() <= prefix.size() || line[prefix.size()] == ' ') return false;
  const std::string head = line.substr(prefix.size());
  for (const char* kind : {"Invalid ", "Error", "Warning", "Uninitialized", "Leaked", "Program hit", "Barrier", "Misaligned",
                           "Out of range", "Address ", "Host API", "Malloc", "Free", "Race"})
    if (head.rfind(kind, 0) == 0) return true;
  return false;
}

std::optional<tool_marker> parse_tool_marker(const std::string& line) {
  const std::string start = progress::tool_case_start_marker;
  if (line.rfind(start, 0) == 0) return tool_marker{line.substr(start.size())};
  if (line.rfind(progress::tool_program_end_marker, 0) == 0) return tool_marker{};
  return std::nullopt;
}

}  // namespace kc::runner
