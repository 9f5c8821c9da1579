#include "tools/grade_report/class_summary.hpp"

#include "tools/grade_report/report_text.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

namespace kc::grade_report {

namespace fs = std::filesystem;

json::value summary_json(const grading_context& who, const run_grade& grade) {
  json::object groups;
  for (const group_grade& g : grade.groups) {
    json::object counts{{"score", g.score},
                        {"max_score", g.weight},
                        {"counted", g.counted},
                        {"passed", g.passed},
                        {"failed", g.failed},
                        {"skipped", g.skipped},
                        {"not_counted", static_cast<double>(g.not_counted.size())}};
    if (!g.empty.empty()) counts.emplace_back("empty", g.empty);
    groups.emplace_back(g.name, std::move(counts));
  }
  return json::object{{"student", who.student},
                      {"family", who.family},
                      {"seed", std::to_string(who.seed)},
                      {"score", grade.score},
                      {"max_score", grade.max_score},
                      {"verdict", grade.verdict},
                      {"groups", std::move(groups)},
                      {"seconds", round2(grade.seconds)},
                      {"build", grade.build_status}};
}

namespace {

struct row {
  std::string student;
  json::value summary;  // null when unreadable
  std::string problem;
};

std::string cell(const json::value* v) {
  if (v == nullptr || v->is_null()) return "";
  if (const std::string* s = v->as_string()) return *s;
  if (const double* x = v->as_number()) return json::format_number(*x);
  return json::dump(*v);
}

row read_row(const fs::path& dir) {
  row r;
  r.student = dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string();
  std::ifstream in(dir / "summary.json", std::ios::binary);
  if (!in) {
    r.problem = "no summary.json in " + dir.string();
    return r;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string error;
  std::optional<json::value> doc = json::parse(text.str(), &error);
  if (!doc || !doc->is_object()) {
    r.problem = (dir / "summary.json").string() + ": not a JSON object" + (error.empty() ? "" : " (" + error + ")");
    return r;
  }
  if (const json::value* s = doc->find("student"); s != nullptr && s->as_string() != nullptr) r.student = *s->as_string();
  r.summary = std::move(*doc);
  return r;
}

}  // namespace

class_csv class_csv_of(const std::vector<fs::path>& student_dirs) {
  std::vector<row> rows;
  for (const fs::path& dir : student_dirs) rows.push_back(read_row(dir));
  std::stable_sort(rows.begin(), rows.end(), [](const row& a, const row& b) { return a.student < b.student; });

  std::vector<std::string> groups;
  for (const row& r : rows) {
    const json::value* g = r.summary.find("groups");
    if (g == nullptr || g->as_object() == nullptr) continue;
    for (const json::member& m : *g->as_object())
      if (std::find(groups.begin(), groups.end(), m.first) == groups.end()) groups.push_back(m.first);
  }

  class_csv out;
  std::string& csv = out.text;
  csv = "student,family,score,max_score,verdict";
  for (const std::string& g : groups) csv += "," + csv_field(g);
  csv += ",seconds,seed\n";
  for (const row& r : rows) {
    if (!r.problem.empty()) out.problems.push_back(r.problem);
    const json::value& s = r.summary;
    csv += csv_field(r.student) + "," + csv_field(cell(s.find("family"))) + "," + csv_field(cell(s.find("score"))) +
           "," + csv_field(cell(s.find("max_score"))) + "," +
           csv_field(r.problem.empty() ? cell(s.find("verdict")) : "unreadable: " + r.problem);
    const json::value* g = s.find("groups");
    for (const std::string& name : groups) {
      const json::value* group = g ? g->find(name) : nullptr;
      csv += "," + csv_field(cell(group ? group->find("score") : nullptr));
    }
    csv += "," + csv_field(cell(s.find("seconds"))) + "," + csv_field(cell(s.find("seed"))) + "\n";
  }
  return out;
}

}  // namespace kc::grade_report
