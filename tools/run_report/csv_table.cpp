#include "tools/run_report/csv_table.hpp"

namespace kc::run_report {

csv_table parse_csv(std::string_view text) {
  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false, any = false;
  const auto end_row = [&] {
    fields.push_back(std::move(field));
    field.clear();
    // A blank line is no row.
    if (fields.size() > 1 || !fields[0].empty()) lines.push_back(std::move(fields));
    fields.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') field += c;
      else if (i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else quoted = false;
      continue;
    }
    any = true;
    if (c == '"') quoted = true;
    else if (c == ',') fields.push_back(std::move(field)), field.clear();
    else if (c == '\n') end_row();
    else if (c != '\r') field += c;
  }
  if (any || !field.empty() || !fields.empty()) end_row();

  csv_table table;
  if (lines.empty()) return table;
  table.header = std::move(lines.front());
  table.rows.assign(std::make_move_iterator(lines.begin() + 1), std::make_move_iterator(lines.end()));
  return table;
}

}  // namespace kc::run_report
