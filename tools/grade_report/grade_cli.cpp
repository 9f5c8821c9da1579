#include "tools/grade_report/grade_cli.hpp"

#include "tools/grade_report/class_summary.hpp"
#include "tools/grade_report/gradescope_results.hpp"
#include "tools/grade_report/rubric.hpp"
#include "tools/grade_report/run_grade.hpp"
#include "tools/grade_report/run_inputs.hpp"
#include "tools/grade_report/seed_check.hpp"
#include "tools/grade_report/student_report.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace kc::grade_report {

namespace {

namespace fs = std::filesystem;

constexpr const char* usage =
    "usage: kconform_grade_report student --run-dir DIR --rubric RUBRIC.json --family FAMILY\n"
    "           --student NAME --submission PATH --seed U64 --out DIR\n"
    "       kconform_grade_report class --out CLASS.csv STUDENT_OUT_DIR...\n"
    "       kconform_grade_report default-rubric --family FAMILY\n";

// "--flag value" pairs, each flag among `allowed` and given once; the rest (not starting with --) in
// `positional` when `positional` is not null.
std::optional<std::map<std::string, std::string>> parse_flags(const std::vector<std::string>& args,
                                                               const std::vector<std::string>& allowed,
                                                               std::vector<std::string>* positional, std::ostream& err) {
  std::map<std::string, std::string> flags;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!a.starts_with("--")) {
      if (positional == nullptr) {
        err << "unexpected argument " << a << "\n";
        return std::nullopt;
      }
      positional->push_back(a);
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), a) == allowed.end()) {
      err << "unknown option " << a << " for " << args[0] << "\n";
      return std::nullopt;
    }
    if (i + 1 >= args.size()) {
      err << "missing value for " << a << "\n";
      return std::nullopt;
    }
    if (!flags.emplace(a, args[++i]).second) {
      err << a << " given twice\n";
      return std::nullopt;
    }
  }
  for (const std::string& flag : allowed)
    if (!flags.contains(flag)) {
      err << flag << " is required for " << args[0] << "\n";
      return std::nullopt;
    }
  return flags;
}

int bad_usage(std::ostream& err) {
  err << usage;
  return exit_bad_usage;
}

// KC_GRADING_FAMILIES: the families with a grading/families/<family>.cmake, comma-separated (CMake).
bool valid_family(const std::string& family, std::ostream& err) {
  const std::string families = KC_GRADING_FAMILIES;
  const bool one_name = !family.empty() && family.find(',') == std::string::npos;
  if (one_name && ("," + families + ",").find("," + family + ",") != std::string::npos) return true;
  err << "--family must be one of " << families << ", not \"" << family << "\"\n";
  return false;
}

bool write_file(const fs::path& path, const std::string& text, std::ostream& out, std::ostream& err) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    err << "kconform_grade_report: cannot write " << path.string() << "\n";
    return false;
  }
  out << path.string() << "\n";
  return true;
}

int run_student(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const auto flags = parse_flags(
      args, {"--run-dir", "--rubric", "--family", "--student", "--submission", "--seed", "--out"}, nullptr, err);
  if (!flags) return bad_usage(err);
  grading_context who;
  who.family = flags->at("--family");
  who.student = flags->at("--student");
  who.submission = flags->at("--submission");
  if (!valid_family(who.family, err)) return exit_bad_usage;
  const std::string& seed = flags->at("--seed");
  const auto [end, ec] = std::from_chars(seed.data(), seed.data() + seed.size(), who.seed);
  if (seed.empty() || ec != std::errc() || end != seed.data() + seed.size()) {
    err << "--seed must be an unsigned 64-bit decimal number, not \"" << seed << "\"\n";
    return exit_bad_usage;
  }
  std::ifstream rubric_file(flags->at("--rubric"), std::ios::binary);
  if (!rubric_file) {
    err << "cannot read the rubric " << flags->at("--rubric") << "\n";
    return exit_bad_usage;
  }
  std::ostringstream rubric_text;
  rubric_text << rubric_file.rdbuf();
  std::string why;
  const std::optional<rubric> rules = parse_rubric(rubric_text.str(), &why);
  if (!rules) {
    err << "invalid rubric " << flags->at("--rubric") << ": " << why << "\n";
    return exit_bad_usage;
  }

  run_inputs run = read_run_dir(flags->at("--run-dir"));
  fail_cases_with_another_seed(&run, who.seed);
  for (const std::string& p : run.problems) err << "kconform_grade_report: " << p << "\n";
  const run_grade grade = grade_run(run, *rules);
  const fs::path dir = flags->at("--out");
  std::error_code created;
  fs::create_directories(dir, created);
  const bool written =
      write_file(dir / "results.json", json::dump(gradescope_results(who, run, *rules, grade)) + "\n", out, err) &&
      write_file(dir / "report.md", student_report(who, run, *rules, grade), out, err) &&
      write_file(dir / "summary.json", json::dump(summary_json(who, grade)) + "\n", out, err);
  return written && run.problems.empty() ? exit_graded : exit_grader_problem;
}

int run_class(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> dirs;
  const auto flags = parse_flags(args, {"--out"}, &dirs, err);
  if (!flags) return bad_usage(err);
  if (dirs.empty()) {
    err << "class needs at least one student folder\n" << usage;
    return exit_bad_usage;
  }
  const class_csv csv = class_csv_of(std::vector<fs::path>(dirs.begin(), dirs.end()));
  for (const std::string& p : csv.problems) err << "kconform_grade_report: " << p << "\n";
  const bool written = write_file(flags->at("--out"), csv.text, out, err);
  return written && csv.problems.empty() ? exit_graded : exit_grader_problem;
}

int run_default_rubric(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const auto flags = parse_flags(args, {"--family"}, nullptr, err);
  if (!flags) return bad_usage(err);
  if (!valid_family(flags->at("--family"), err)) return exit_bad_usage;
  // One rubric serves both families today; the flag keeps the command line stable if they diverge.
  out << rubric_text(default_rubric());
  return exit_graded;
}

}  // namespace

int run_grade_report(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return bad_usage(err);
  if (args[0] == "student") return run_student(args, out, err);
  if (args[0] == "class") return run_class(args, out, err);
  if (args[0] == "default-rubric") return run_default_rubric(args, out, err);
  if (args[0] == "--help" || args[0] == "-h") {
    out << usage;
    return exit_graded;
  }
  err << "unknown command " << args[0] << "\n" << usage;
  return exit_bad_usage;
}

}  // namespace kc::grade_report
