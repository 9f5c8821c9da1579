#include "tools/perf_report/perf_rows.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

namespace kc::perf_report {

namespace {

constexpr std::size_t shown_row_chars = 240;  // enough to recognise a row; a binary blob stays short

}  // namespace

void read_perf_text(std::string_view file_name, std::string_view text, perf_rows& rows) {
  int line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a file that passed through Windows
    if (line.find_first_not_of(" \t") == std::string_view::npos || line.starts_with("key\t")) continue;
    if (std::optional<perf::judged_point> point = perf::parse_tsv_row(line)) {
      rows.points.push_back(std::move(*point));
    } else {
      std::string shown(line.substr(0, shown_row_chars));
      if (line.size() > shown_row_chars) shown += "\u2026";
      rows.malformed.push_back({std::string(file_name), line_number, std::move(shown)});
    }
  }
}

perf_rows read_perf_dir(const std::filesystem::path& report_dir) {
  perf_rows rows;
  const std::filesystem::path perf_dir = report_dir / "perf";
  std::error_code error;
  if (!std::filesystem::is_directory(perf_dir, error)) return rows;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(perf_dir, error))
    if (entry.is_regular_file(error) && entry.path().extension() == ".tsv") files.push_back(entry.path());
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  for (const std::filesystem::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string name = file.filename().string();
    rows.files.push_back(name);
    read_perf_text(name, text.str(), rows);
  }
  return rows;
}

std::string point_label(const perf::point_key& key) { return key.variant + " " + key.size + " " + key.config; }

std::string card_label(const perf::judged_point& p) {
  if (p.gpu_uuid.empty() && p.gpu_index < 0) return "";
  const std::string index = p.gpu_index >= 0 ? std::to_string(p.gpu_index) : "?";
  return "GPU " + index + (p.gpu_uuid.empty() ? "" : " (" + p.gpu_uuid.substr(0, 12) + ")");
}

bool several_cards(const std::vector<const perf::judged_point*>& points) {
  std::set<std::string> cards;
  for (const perf::judged_point* p : points)
    if (!p->gpu_uuid.empty()) cards.insert(p->gpu_uuid);
  return cards.size() > 1;
}

bool several_cards(const perf_rows& rows) {
  std::vector<const perf::judged_point*> points;
  for (const perf::judged_point& p : rows.points) points.push_back(&p);
  return several_cards(points);
}

}  // namespace kc::perf_report
