// The failures section (page_sections.hpp).
#include "tools/perf_report/html_text.hpp"
#include "tools/run_report/failure_details.hpp"
#include "tools/run_report/page_sections.hpp"
#include "tools/run_report/page_text.hpp"

#include <set>
#include <sstream>

namespace kc::run_report {

using perf_report::html_escape;

namespace {

// A unit that fails everywhere (a broken kernel) fails hundreds of cases alike: the first few and
// the smallest say as much as all of them, and the page stays readable. cases.xml has every one.
constexpr std::size_t shown_per_unit = 12;
constexpr std::size_t output_lines = 30;  // of a failed CTest test's output

void failed_case_html(std::ostringstream& html, const run_folder& run, const unit_run& unit, const unit_case& c,
                      bool smallest) {
  html << "<article class=\"failure\" id=\"" << failed_case_id(unit.name, c.name) << "\">\n<h4><code>" << html_escape(c.name)
       << "</code>" << (smallest ? " <span class=\"badge\">smallest failing case</span>" : "") << "</h4>\n<dl>\n";
  const std::string replay = replay_line(c.message);
  html << "<dt>replay</dt><dd>"
       << (replay.empty() ? "<span class=\"none\">no replay line in the message</span>"
                          : "<code class=\"replay\">" + html_escape(replay) + "</code>")
       << "</dd>\n";
  const std::string dump = dump_file_of(c, run.failure_dumps);
  const std::string dump_path = data_dump_path(c.message);
  html << "<dt>data</dt><dd>";
  if (!dump.empty())
    html << "<a class=\"dump\" href=\"failures/" << html_escape(dump) << "\">failures/" << html_escape(dump) << "</a>";
  else if (!dump_path.empty())
    html << "<span class=\"none\">the message names " << html_escape(dump_path) << ", which is not in failures/</span>";
  else
    html << "<span class=\"none\">no data dump recorded</span>";
  html << "</dd>\n";
  if (const std::string work = c.property("work"); !work.empty())
    html << "<dt>work</dt><dd>" << html_escape(work) << "</dd>\n";
  html << "<dt>time</dt><dd>" << format_seconds(c.seconds) << " s</dd>\n</dl>\n<pre class=\"message\">"
       << (c.message.empty() ? "(no message recorded)" : html_escape(c.message)) << "</pre>\n</article>\n";
}

void unit_failures_html(std::ostringstream& html, const run_folder& run, const unit_run& unit) {
  std::vector<const unit_case*> failed;
  for (const unit_case& c : unit.cases)
    if (c.result == outcome::failed) failed.push_back(&c);
  if (failed.empty()) return;
  const std::optional<std::size_t> smallest = smallest_failure(failed);
  html << "<div class=\"unit-failures\" id=\"" << unit_failures_id(unit.name) << "\">\n<h3><code>" << html_escape(unit.name)
       << "</code> <span class=\"sub\">" << failed.size() << " of " << counted(unit.cases.size(), "case", "cases")
       << " failed</span></h3>\n";
  // The smallest first: the case to start debugging from.
  if (smallest) failed_case_html(html, run, unit, *failed[*smallest], true);
  std::size_t shown = smallest ? 1 : 0;
  for (std::size_t i = 0; i < failed.size() && shown < shown_per_unit; ++i) {
    if (smallest && i == *smallest) continue;
    failed_case_html(html, run, unit, *failed[i], false);
    ++shown;
  }
  if (failed.size() > shown)
    html << "<p class=\"more\">" << counted(failed.size() - shown, "more failed case", "more failed cases")
         << " of this unit not shown: units/" << html_escape(unit.name) << ".xml and cases.xml have every one.</p>\n";
  html << "</div>\n";
}

}  // namespace

std::string unit_failures_id(const std::string& unit) { return element_id("failures-", unit); }
std::string failed_case_id(const std::string& unit, const std::string& case_name) {
  return element_id("case-", unit + "/" + case_name);
}

std::string failures_section_html(const run_folder& run) {
  std::ostringstream html;
  std::size_t failed_cases = 0;
  std::set<std::string> units_with_failed_cases;
  for (const unit_run& u : run.units)
    if (const std::size_t n = u.count(outcome::failed); n > 0) failed_cases += n, units_with_failed_cases.insert(u.name);
  html << "<section id=\"failures\">\n<h2>Failed cases <span class=\"sub\">" << failed_cases << "</span></h2>\n";
  if (failed_cases == 0)
    html << "<p class=\"none\">"
         << (run.units.empty() ? "No unit recorded its cases (units/ is missing or empty)." : "No case failed.") << "</p>\n";
  for (const unit_run& u : run.units) unit_failures_html(html, run, u);

  // A CTest test can fail with no failed case to show: a unit whose process died before recording,
  // a CPU test, a benchmark, a sanitizer or profile check.
  std::vector<const ctest_test*> other;
  if (run.ctest)
    for (const ctest_test& t : *run.ctest)
      if (t.result == outcome::failed && !units_with_failed_cases.contains(t.name)) other.push_back(&t);
  if (!other.empty()) {
    html << "<h3>CTest tests that failed without a failed case recorded <span class=\"sub\">" << other.size()
         << "</span></h3>\n";
    for (const ctest_test* t : other)
      html << "<article class=\"failure\" id=\"" << element_id("test-", t->name) << "\">\n<h4><code>" << html_escape(t->name)
           << "</code> <span class=\"sub\">" << html_escape(t->message.empty() ? "failed" : t->message) << ", "
           << format_seconds(t->seconds) << " s</span></h4>\n<pre class=\"message\">"
           << (t->output.empty() ? "(no output recorded)" : html_escape(last_lines(t->output, output_lines)))
           << "</pre>\n</article>\n";
  }
  html << "</section>\n";
  return html.str();
}

}  // namespace kc::run_report
