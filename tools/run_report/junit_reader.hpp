// Reading JUnit XML as the GPU run writes it: CTest's junit.xml (one <testcase> per CTest test,
// status="run"/"fail"/"notrun"/"disabled", <failure message=...>/<skipped message=...>, the test's
// output in <system-out>) and the runner's units/*.xml (tools/runner/unit_report.cpp: one <testcase>
// per case, status="passed"/"failed"/"skipped", gtest's properties, the whole message as the
// <failure> text). Not a general XML parser: elements, attributes, text, entities, CDATA, comments
// — what those writers emit. A file cut short (a process killed mid-write) yields what was complete.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kc::run_report {

using property_list = std::vector<std::pair<std::string, std::string>>;

struct junit_case {
  std::string classname;
  std::string name;
  std::string status;  // the attribute as written ("" when absent)
  double seconds = 0;
  bool failed = false;   // a <failure> or <error> child
  bool skipped = false;  // a <skipped> child
  std::string message;   // the <failure>/<error>/<skipped> message attribute
  std::string text;      // the <failure>/<error> element's text
  std::string output;    // <system-out> and <system-err>
  property_list properties;
};

struct junit_suite {
  std::string name;
  double seconds = 0;
  int tests = 0, failures = 0, skipped = 0, disabled = 0;
  property_list properties;  // the suite's own, not its cases'
  std::vector<junit_case> cases;
};

// Every <testsuite> in the text, in order (CTest writes one without <testsuites>; the runner wraps
// one in <testsuites>). A <testcase> outside any <testsuite> goes to a suite with an empty name.
std::vector<junit_suite> parse_junit(std::string_view text);

// &amp; &lt; &gt; &quot; &apos; and numeric character references decoded; anything else kept.
std::string xml_unescape(std::string_view text);

// The named property's value; "" when absent (the last one when recorded twice, as gtest keeps).
std::string property_of(const property_list& properties, std::string_view name);

}  // namespace kc::run_report
