#include "tools/runner/sanitizer_output.hpp"

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

}  // namespace kc::runner
