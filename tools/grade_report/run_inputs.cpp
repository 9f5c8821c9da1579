#include "tools/grade_report/run_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace kc::grade_report {

namespace fs = std::filesystem;

std::string case_record::property(std::string_view key) const {
  for (const auto& [k, v] : properties)
    if (k == key) return v;
  return "";
}

double number_of(const std::string& text) {
  if (text.empty()) return std::numeric_limits<double>::quiet_NaN();
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  return x;
}

namespace {

bool read_text(const fs::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return !in.bad();
}

std::optional<json::value> read_json(const fs::path& path, std::vector<std::string>* problems) {
  std::string text;
  if (!read_text(path, &text)) {
    problems->push_back(path.filename().string() + ": cannot be read");
    return std::nullopt;
  }
  std::string error;
  std::optional<json::value> doc = json::parse(text, &error);
  if (!doc) problems->push_back(path.filename().string() + ": not valid JSON (" + error + ")");
  return doc;
}

std::string text_of(const json::value* v) {
  if (v == nullptr) return "";
  if (const std::string* s = v->as_string()) return *s;
  if (v->is_null()) return "";
  return json::dump(*v);  // a number or bool recorded as itself
}

std::vector<std::string> strings_of(const json::value* v) {
  std::vector<std::string> out;
  if (v == nullptr || v->as_array() == nullptr) return out;
  for (const json::value& item : *v->as_array()) out.push_back(text_of(&item));
  return out;
}

build_record read_build(const fs::path& path, std::vector<std::string>* problems) {
  build_record b;
  if (!fs::exists(path)) {
    problems->push_back("build.json is missing: the build step did not record its result");
    return b;
  }
  const std::optional<json::value> doc = read_json(path, problems);
  if (!doc) return b;
  const std::string* status = doc->find("status") ? doc->find("status")->as_string() : nullptr;
  if (status == nullptr || status->empty()) {
    problems->push_back("build.json: no \"status\" string");
  } else {
    b.status = *status;
  }
  b.log = text_of(doc->find("log"));
  b.libraries = strings_of(doc->find("libraries"));
  b.suite_symbols = strings_of(doc->find("suite_symbols"));
  if (const json::value* traits = doc->find("traits")) b.traits = *traits;
  return b;
}

// A case's runtime_libraries property: findings joined by "; " (the grading side keeps ';' out of them).
void add_runtime_libraries(const std::string& text, std::vector<std::string>* found) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    std::string item = text.substr(start, end - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty() && std::find(found->begin(), found->end(), item) == found->end()) found->push_back(item);
    start = end + 1;
  }
}

void read_unit(const fs::path& path, run_inputs* run) {
  const std::optional<json::value> doc = read_json(path, &run->problems);
  if (!doc) return;
  const json::value* cases = doc->find("cases");
  if (cases == nullptr || cases->as_array() == nullptr) {
    run->problems.push_back(path.filename().string() + ": no \"cases\" array");
    return;
  }
  const std::string unit = text_of(doc->find("unit"));
  if (const json::value* s = doc->find("seconds"); s != nullptr && s->as_number() != nullptr) run->seconds += *s->as_number();
  for (const json::value& item : *cases->as_array()) {
    case_record c;
    c.unit = unit.empty() ? path.stem().string() : unit;
    c.name = text_of(item.find("name"));
    c.status = text_of(item.find("status"));
    c.message = text_of(item.find("message"));
    if (const json::value* s = item.find("seconds"); s != nullptr && s->as_number() != nullptr) c.seconds = *s->as_number();
    if (const json::value* p = item.find("properties"); p != nullptr && p->as_object() != nullptr)
      for (const auto& [key, v] : *p->as_object()) c.properties.emplace_back(key, text_of(&v));
    add_runtime_libraries(c.property("runtime_libraries"), &run->runtime_libraries);
    // The judge's word that it could not run the submission at all (grading/executor/remote_submission.cpp:
    // a library or device its sandbox could not reach): the grade is not the student's. Once per unit
    // and problem, however many cases it failed.
    if (const std::string problem = c.property("grader_problem"); !problem.empty()) {
      const std::string line = "unit " + c.unit + ": the grader could not run the submission: " + problem;
      if (std::find(run->problems.begin(), run->problems.end(), line) == run->problems.end())
        run->problems.push_back(line);
    }
    if (c.status != "passed" && c.status != "failed" && c.status != "skipped") {
      // A verdict the grader does not know is not a pass.
      run->problems.push_back(path.filename().string() + ": case " + c.name + " has status \"" + c.status +
                              "\"; counted as failed");
      c.message = "the runner recorded status \"" + c.status + "\"\n" + c.message;
      c.status = "failed";
    }
    run->cases.push_back(std::move(c));
  }
}

// `kconform_runner list`'s lines: <unit> <tab> <cases> <tab> <cost>.
std::vector<std::pair<std::string, int>> read_listed_units(const fs::path& path) {
  std::vector<std::pair<std::string, int>> units;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const std::size_t tab = line.find('\t');
    if (tab == 0 || tab == std::string::npos) continue;
    units.emplace_back(line.substr(0, tab), std::atoi(line.c_str() + tab + 1));
  }
  return units;
}

// scripts/rerun_memory_starved.sh's record: <runner name> <tab> ran | not run: <why>.
void read_memory_reruns(const fs::path& path, run_inputs* run) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const std::size_t tab = line.find('\t');
    if (tab == 0 || tab == std::string::npos) continue;
    run->memory_reruns.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
}

}  // namespace

run_inputs read_run_dir(const fs::path& run_dir) {
  run_inputs run;
  run.build = read_build(run_dir / "build.json", &run.problems);
  // scripts/grade.sh has the runner write beside build.json, in run/units/; a folder laid out as the
  // runner's own report (units/ at the top) is read too.
  std::vector<fs::path> units;
  for (const fs::path& folder : {run_dir / "units", run_dir / "run" / "units"}) {
    std::error_code ec;
    if (fs::is_directory(folder, ec))
      for (const fs::directory_entry& e : fs::directory_iterator(folder, ec))
        if (e.path().extension() == ".json") units.push_back(e.path());
  }
  std::sort(units.begin(), units.end(), [](const fs::path& x, const fs::path& y) {
    return x.filename() != y.filename() ? x.filename() < y.filename() : x < y;
  });
  for (const fs::path& unit : units) read_unit(unit, &run);
  for (const fs::path& listed : {run_dir / "listed_units.tsv", run_dir / "run" / "listed_units.tsv"})
    if (fs::exists(listed)) run.listed_units = read_listed_units(listed);
  if (const fs::path reruns = run_dir / "run" / "memory_starved.rerun.tsv"; fs::exists(reruns))
    read_memory_reruns(reruns, &run);
  return run;
}

}  // namespace kc::grade_report
