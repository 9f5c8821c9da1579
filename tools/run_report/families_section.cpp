// The families and slowest-units sections (page_sections.hpp).
#include "fixtures/case_progress.hpp"
#include "fixtures/time_spent.hpp"
#include "tools/perf_report/html_text.hpp"
#include "tools/run_report/page_sections.hpp"
#include "tools/run_report/page_text.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <sstream>

namespace kc::run_report {

using perf_report::html_escape;

namespace {

constexpr std::size_t slowest_shown = 10;  // as summary.md

// Where a unit's case seconds went: each case's <kind>_seconds properties (fixtures/time_spent.hpp,
// exclusive of one another) added up, and what is left of the case time ("other": each case's
// remaining host work and its synchronisations with a shared GPU).
struct time_split {
  static constexpr const auto& keys = time_spent::property_names;
  static constexpr const char* labels[std::size(keys)] = {"inputs and references", "waiting for the GPU", "downloads",
                                                          "comparisons", "allocations", "guard zones"};
  double kinds[std::size(keys)] = {};
  // The cases' seconds opening the GPU: the CUDA start-up a process makes in its first case (the
  // runner's device_open_seconds), which the driver serialises for the host; on 4 H200s at c36ac4f
  // 307 of the run's 809 unit-seconds, which "other" had held unnamed.
  double device_open = 0;
  double cases = 0;  // the cases' seconds
  bool any = false;  // some case recorded a kind
  void add(const unit_run& unit) {
    for (const unit_case& c : unit.cases) {
      cases += c.seconds;
      for (std::size_t k = 0; k < std::size(keys); ++k)
        if (const std::string v = c.property(keys[k]); !v.empty()) {
          kinds[k] += std::atof(v.c_str());
          any = true;
        }
      if (const std::string v = c.property(progress::device_open_property); !v.empty()) device_open += std::atof(v.c_str());
    }
  }
  double other() const {
    double timed = device_open;
    for (const double k : kinds) timed += k;
    return std::max(0.0, cases - timed);
  }
};

// A known-bad row's case: the gate records "verdict" (and "first_catch", "bug") for every row it
// judges (fixtures/check_result.hpp, known_bad_tally::expect_caught). The case passes when some
// check caught the row.
bool is_known_bad_row(const unit_case& c) { return !c.property("verdict").empty(); }

std::string row_name(const std::string& case_name) { return case_name.substr(case_name.rfind('/') + 1); }

struct family_counts {
  std::vector<const unit_run*> units;
  std::size_t cases = 0, passed = 0, failed = 0, skipped = 0, rows = 0, caught = 0;
};

std::map<std::string, family_counts> by_family(const run_folder& run) {
  std::map<std::string, family_counts> families;
  for (const unit_run& u : run.units) {
    family_counts& f = families[u.family];
    f.units.push_back(&u);
    f.cases += u.cases.size();
    f.passed += u.count(outcome::passed);
    f.failed += u.count(outcome::failed);
    f.skipped += u.count(outcome::skipped);
    for (const unit_case& c : u.cases)
      if (is_known_bad_row(c)) ++f.rows, f.caught += c.result == outcome::passed;
  }
  return families;
}

std::string failed_cell(std::size_t failed, const std::string& target_id) {
  if (failed == 0) return "<td>0</td>";
  return "<td class=\"bad\"><a href=\"#" + target_id + "\">" + std::to_string(failed) + "</a></td>";
}

void known_bad_rows_html(std::ostringstream& html, const family_counts& f) {
  if (f.rows == 0) return;
  html << "<h4>Known-bad rows <span class=\"sub\">" << f.caught << " of " << f.rows
       << " caught; a row the suite lets through fails its case</span></h4>\n"
       << "<table class=\"known-bad\"><thead><tr><th class=\"text\">row</th><th class=\"text\">outcome</th>"
          "<th class=\"text\">verdict</th><th class=\"text\">first catch</th><th class=\"text\">bug</th></tr></thead><tbody>\n";
  for (const unit_run* u : f.units)
    for (const unit_case& c : u->cases) {
      if (!is_known_bad_row(c)) continue;
      const bool caught = c.result == outcome::passed;
      html << "<tr class=\"" << (caught ? "caught" : "escaped") << "\"><td class=\"text\"><code>" << html_escape(row_name(c.name))
           << "</code><br><span class=\"sub\">" << html_escape(u->name) << "</span></td><td class=\"text\">"
           << (caught                          ? std::string("caught")
               : c.result == outcome::skipped ? std::string("skipped")
                                              : "<a href=\"#" + failed_case_id(u->name, c.name) + "\">NOT caught</a>")
           << "</td><td class=\"text\">" << html_escape(c.property("verdict")) << "</td><td class=\"text\">"
           << html_escape(c.property("first_catch")) << "</td><td class=\"text\">" << html_escape(c.property("bug"))
           << "</td></tr>\n";
    }
  html << "</tbody></table>\n";
}

}  // namespace

std::string families_section_html(const run_folder& run) {
  std::ostringstream html;
  const std::map<std::string, family_counts> families = by_family(run);
  html << "<section id=\"families\">\n<h2>Families <span class=\"sub\">" << counted(families.size(), "family", "families")
       << ", " << counted(run.units.size(), "unit", "units") << "</span></h2>\n";
  if (families.empty()) {
    html << "<p class=\"none\">No unit recorded its cases (units/ is missing or empty): there is nothing to show per "
            "family.</p>\n</section>\n";
    return html.str();
  }
  // Kernel families first; the suite's own fixtures and umbrellas over several families apart.
  std::vector<std::string> names;
  for (const auto& [name, f] : families) names.push_back(name);
  const auto table = [&](bool across) {
    html << "<table class=\"families\"><thead><tr><th class=\"text\">" << (across ? "units" : "family")
         << "</th><th>units</th><th>cases</th><th>passed</th><th>failed</th><th>skipped</th><th>known-bad rows caught</th>"
            "</tr></thead><tbody>\n";
    for (const auto& [name, f] : families) {
      if (is_across_families(name, names) != across) continue;
      html << "<tr><td class=\"text\"><a href=\"#" << element_id("family-", name) << "\">" << html_escape(name) << "</a></td><td>"
           << f.units.size() << "</td><td>" << f.cases << "</td><td>" << f.passed << "</td>"
           << failed_cell(f.failed, element_id("family-", name)) << "<td>" << f.skipped << "</td><td"
           << (f.caught < f.rows ? " class=\"bad\"" : "") << ">"
           << (f.rows == 0 ? std::string("\u2014") : std::to_string(f.caught) + " of " + std::to_string(f.rows)) << "</td></tr>\n";
    }
    html << "</tbody></table>\n";
  };
  table(false);
  if (std::any_of(names.begin(), names.end(), [&](const std::string& n) { return is_across_families(n, names); })) {
    html << "<h3 id=\"across-families\">Across families <span class=\"sub\">the suite's own fixtures, and units over "
            "several families</span></h3>\n";
    table(true);
  }

  for (const auto& [name, f] : families) {
    html << "<section class=\"family\" id=\"" << element_id("family-", name) << "\">\n<h3>" << html_escape(name)
         << " <span class=\"sub\">" << counted(f.cases, "case", "cases") << ": " << f.passed << " passed, " << f.failed
         << " failed, " << f.skipped << " skipped</span></h3>\n"
         << "<table class=\"units\"><thead><tr><th class=\"text\">unit</th><th>cases</th><th>passed</th><th>failed</th>"
            "<th>skipped</th><th>processes</th><th>seconds</th></tr></thead><tbody>\n";
    for (const unit_run* u : f.units)
      html << "<tr><td class=\"text\"><code>" << html_escape(u->name) << "</code></td><td>" << u->cases.size() << "</td><td>"
           << u->count(outcome::passed) << "</td>" << failed_cell(u->count(outcome::failed), unit_failures_id(u->name))
           << "<td>" << u->count(outcome::skipped) << "</td><td>" << u->processes << "</td><td>" << format_seconds(u->seconds)
           << "</td></tr>\n";
    html << "</tbody></table>\n";
    known_bad_rows_html(html, f);
    html << "</section>\n";
  }
  html << "</section>\n";
  return html.str();
}

std::string slowest_section_html(const run_folder& run) {
  std::ostringstream html;
  html << "<section id=\"slowest\">\n";
  if (!run.units.empty()) {
    std::vector<const unit_run*> units;
    for (const unit_run& u : run.units) units.push_back(&u);
    std::stable_sort(units.begin(), units.end(), [](const unit_run* a, const unit_run* b) { return a->seconds > b->seconds; });
    units.resize(std::min(units.size(), slowest_shown));
    html << "<h2>The slowest units <span class=\"sub\">" << units.size() << " of " << run.units.size() << "</span></h2>\n";
    // Where the run's case seconds went (issue 21: find where the time goes before cutting it).
    time_split all;
    for (const unit_run& u : run.units) all.add(u);
    if (all.any) {
      html << "<p class=\"time-split\">Where the cases' " << format_seconds(all.cases) << " s went: ";
      for (std::size_t k = 0; k < std::size(time_split::keys); ++k)
        html << time_split::labels[k] << " " << format_seconds(all.kinds[k]) << " s, ";
      html << "opening the GPU (CUDA start-ups) " << format_seconds(all.device_open) << " s, "
           << "other host work and synchronisation " << format_seconds(all.other()) << " s.</p>\n";
    }
    html << "<table class=\"slowest\"><thead><tr><th class=\"text\">unit</th><th>cases</th><th>processes</th><th>seconds</th>"
         << (all.any ? "<th>inputs</th><th>GPU wait</th><th>downloads</th><th>other</th>" : "") << "</tr></thead><tbody>\n";
    for (const unit_run* u : units) {
      html << "<tr><td class=\"text\"><code>" << html_escape(u->name) << "</code></td><td>" << u->cases.size() << "</td><td>"
           << u->processes << "</td><td>" << format_seconds(u->seconds) << "</td>";
      if (all.any) {
        time_split one;
        one.add(*u);
        html << "<td>" << format_seconds(one.kinds[0]) << "</td><td>" << format_seconds(one.kinds[1]) << "</td><td>"
             << format_seconds(one.kinds[2]) << "</td><td>" << format_seconds(one.other()) << "</td>";
      }
      html << "</tr>\n";
    }
    html << "</tbody></table>\n";
  } else if (run.ctest && !run.ctest->empty()) {
    std::vector<const ctest_test*> tests;
    for (const ctest_test& t : *run.ctest) tests.push_back(&t);
    std::stable_sort(tests.begin(), tests.end(), [](const ctest_test* a, const ctest_test* b) { return a->seconds > b->seconds; });
    tests.resize(std::min(tests.size(), slowest_shown));
    html << "<h2>The slowest CTest tests <span class=\"sub\">no unit recorded its statistics</span></h2>\n"
         << "<table class=\"slowest\"><thead><tr><th class=\"text\">test</th><th class=\"text\">outcome</th><th>seconds</th>"
            "</tr></thead><tbody>\n";
    for (const ctest_test* t : tests)
      html << "<tr><td class=\"text\"><code>" << html_escape(t->name) << "</code></td><td class=\"text\">" << name_of(t->result)
           << "</td><td>" << format_seconds(t->seconds) << "</td></tr>\n";
    html << "</tbody></table>\n";
  } else {
    html << "<h2>The slowest units</h2>\n<p class=\"none\">No timings recorded (no units/ and no junit.xml).</p>\n";
  }
  html << "</section>\n";
  return html.str();
}

}  // namespace kc::run_report
