#include "tools/run_report/failure_details.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kc::run_report {

namespace {

// The rest of the first line that reads "<key>: ..." after leading spaces, without a closing
// parenthesis that the line itself did not open (gtest's "Actual: false (" ends there).
std::string line_after(std::string_view message, std::string_view key) {
  std::size_t start = 0;
  while (start <= message.size()) {
    std::size_t end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    std::string_view line = message.substr(start, end - start);
    start = end + 1;
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ':') continue;
    std::string value(line.substr(key.size() + 1));
    value.erase(0, value.find_first_not_of(' '));
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.pop_back();
    while (!value.empty() && value.back() == ')' &&
           std::count(value.begin(), value.end(), ')') > std::count(value.begin(), value.end(), '('))
      value.pop_back();
    return value;
  }
  return "";
}

}  // namespace

std::string replay_line(std::string_view message) { return line_after(message, "replay"); }

std::string data_dump_path(std::string_view message) {
  const std::string path = line_after(message, "data");
  // failure_dump.cpp's "no data dump (cannot write ...)" is a reason, not a path.
  return path.starts_with("no data dump") ? "" : path;
}

std::string dump_file_of(const unit_case& c, const std::vector<std::string>& failure_dumps) {
  const std::string path = data_dump_path(c.message);
  if (path.empty()) return "";
  const std::string file = path.substr(path.find_last_of('/') + 1);
  return std::find(failure_dumps.begin(), failure_dumps.end(), file) != failure_dumps.end() ? file : "";
}

std::optional<std::size_t> smallest_failure(const std::vector<const unit_case*>& failed) {
  std::optional<std::size_t> smallest;
  double least = 0;
  for (std::size_t i = 0; i < failed.size(); ++i) {
    const std::string text = failed[i]->property("work");
    char* end = nullptr;
    const double work = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(work)) continue;
    if (!smallest || work < least) smallest = i, least = work;
  }
  return smallest;
}

}  // namespace kc::run_report
