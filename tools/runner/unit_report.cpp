#include "tools/runner/unit_report.hpp"

#include "fixtures/case_progress.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/time_spent.hpp"

#include "fixtures/json_text.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>

namespace kc::runner {

std::size_t unit_outcome::count(case_status status) const {
  std::size_t n = 0;
  for (const case_result& c : cases) n += c.status == status;
  return n;
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab, newline and carriage return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += '?';
        else out += c;
    }
  }
  return out;
}

std::string junit_xml(const unit_outcome& unit) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"" << unit.cases.size() << "\" failures=\""
      << unit.count(case_status::failed) << "\" skipped=\"" << unit.count(case_status::skipped) << "\" time=\""
      << unit.seconds << "\" name=\"" << xml_escape(unit.name) << "\">\n  <testsuite name=\"" << xml_escape(unit.name)
      << "\" tests=\"" << unit.cases.size() << "\" failures=\"" << unit.count(case_status::failed) << "\" skipped=\""
      << unit.count(case_status::skipped) << "\" errors=\"0\" time=\"" << unit.seconds << "\">\n"
      << "    <properties><property name=\"processes\" value=\"" << unit.processes << "\"/></properties>\n";
  for (const case_result& c : unit.cases) {
    // gtest's full name "Suite.Test/Param": classname the suite, name the rest.
    const auto dot = c.name.find('.');
    const std::string classname = dot == std::string::npos ? unit.name : c.name.substr(0, dot);
    const std::string name = dot == std::string::npos ? c.name : c.name.substr(dot + 1);
    out << "    <testcase classname=\"" << xml_escape(classname) << "\" name=\"" << xml_escape(name) << "\" time=\""
        << c.seconds << "\" status=\"" << name_of(c.status) << "\">\n";
    if (!c.properties.empty()) {
      out << "      <properties>";
      for (const auto& [key, value] : c.properties)
        out << "<property name=\"" << xml_escape(key) << "\" value=\"" << xml_escape(value) << "\"/>";
      out << "</properties>\n";
    }
    const std::string first_line = c.message.substr(0, c.message.find('\n'));
    if (c.status == case_status::failed)
      out << "      <failure message=\"" << xml_escape(first_line) << "\">" << xml_escape(c.message) << "</failure>\n";
    else if (c.status == case_status::skipped)
      out << "      <skipped message=\"" << xml_escape(first_line) << "\"/>\n";
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

std::string unit_json(const unit_outcome& unit) {
  json::array cases;
  for (const case_result& c : unit.cases) {
    json::object properties;
    for (const auto& [key, value] : c.properties) {
      // gtest keeps the last value of a key recorded twice; so does this.
      bool replaced = false;
      for (json::member& m : properties)
        if (m.first == key) m.second = value, replaced = true;
      if (!replaced) properties.emplace_back(key, value);
    }
    cases.push_back(json::object{{"name", c.name},
                                 {"status", name_of(c.status)},
                                 {"seconds", c.seconds},
                                 {"attempt", c.attempt},
                                 {"message", c.message},
                                 {"properties", std::move(properties)}});
  }
  return json::dump(json::object{{"unit", unit.name},
                                 {"processes", unit.processes},
                                 {"seconds", unit.seconds},
                                 {"started", unit.started_epoch},
                                 {"launch_seconds", unit.launch_seconds},
                                 {"exit_seconds", unit.exit_seconds},
                                 {"cases", std::move(cases)}}) +
         "\n";
}

std::optional<unit_outcome> unit_from_json(std::string_view text) {
  std::string error;
  const std::optional<json::value> doc = json::parse(text, &error);
  if (!doc) return std::nullopt;
  const json::value* name = doc->find("unit");
  const json::value* cases = doc->find("cases");
  if (name == nullptr || name->as_string() == nullptr || cases == nullptr || cases->as_array() == nullptr)
    return std::nullopt;
  const auto number = [](const json::value* v) { return v != nullptr && v->as_number() != nullptr ? *v->as_number() : 0.0; };
  const auto text_of = [](const json::value* v) { return v != nullptr && v->as_string() != nullptr ? *v->as_string() : std::string(); };
  unit_outcome unit;
  unit.name = *name->as_string();
  unit.processes = static_cast<int>(number(doc->find("processes")));
  unit.seconds = number(doc->find("seconds"));
  unit.started_epoch = number(doc->find("started"));
  unit.launch_seconds = number(doc->find("launch_seconds"));
  unit.exit_seconds = number(doc->find("exit_seconds"));
  for (const json::value& item : *cases->as_array()) {
    case_result c;
    c.name = text_of(item.find("name"));
    const std::string status = text_of(item.find("status"));
    c.status = status == "passed" ? case_status::passed : status == "skipped" ? case_status::skipped : case_status::failed;
    c.seconds = number(item.find("seconds"));
    c.attempt = static_cast<int>(number(item.find("attempt")));
    c.message = text_of(item.find("message"));
    if (const json::value* properties = item.find("properties"); properties != nullptr && properties->as_object() != nullptr)
      for (const json::member& m : *properties->as_object()) c.properties.emplace_back(m.first, text_of(&m.second));
    unit.cases.push_back(std::move(c));
  }
  return unit;
}

unit_outcome with_cases_replaced(const unit_outcome& earlier, const unit_outcome& rerun, const std::string& note,
                                 const std::vector<std::string>& dropped) {
  unit_outcome merged = earlier;
  std::erase_if(merged.cases, [&](const case_result& c) {
    return std::find(dropped.begin(), dropped.end(), c.name) != dropped.end();
  });
  for (case_result c : rerun.cases) {
    c.message += (c.message.empty() ? "" : "\n") + note;
    const auto same = std::find_if(merged.cases.begin(), merged.cases.end(),
                                   [&](const case_result& e) { return e.name == c.name; });
    if (same != merged.cases.end()) *same = std::move(c);
    else merged.cases.push_back(std::move(c));
  }
  merged.gpu = rerun.gpu;  // not in the JSON: the run alone's
  merged.processes += rerun.processes;
  merged.seconds += rerun.seconds;
  merged.launch_seconds += rerun.launch_seconds;
  merged.exit_seconds += rerun.exit_seconds;
  return merged;
}

std::string stats_line(const unit_outcome& unit) {
  // What its cases' seconds went to, by kind (fixtures/time_spent.hpp: the cases' <kind>_seconds
  // properties): inputs and CPU references, waiting for the GPU, downloads, comparisons, device
  // allocations and frees, guard zones; and opening the GPU (device_open_seconds: the CUDA start-up
  // each process makes in its first case, fixtures/case_progress.hpp), inside the case time, so not
  // "outside any case": on 4 H200s at c36ac4f 307 of the run's 809 unit-seconds, the largest share.
  double spent[std::size(time_spent::every_kind)] = {};
  double device_open = 0;
  for (const case_result& c : unit.cases)
    for (const auto& [key, value] : c.properties) {
      if (key == progress::device_open_property) device_open += std::atof(value.c_str());
      for (const time_spent::kind k : time_spent::every_kind)
        if (key == time_spent::property_name(k)) spent[static_cast<int>(k)] += std::atof(value.c_str());
    }
  // The unit's seconds outside any case: listing the cases, starting each process (loading its
  // libraries, static initialisation, the CUDA context where no case made it), its exit.
  double in_cases = 0;
  for (const case_result& c : unit.cases) in_cases += c.seconds;
  const auto fixed2 = [](double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", x);
    return std::string(text);
  };
  std::ostringstream out;
  out << unit.name << '\t' << unit.cases.size() << '\t' << unit.count(case_status::passed) << '\t'
      << unit.count(case_status::failed) << '\t' << unit.count(case_status::skipped) << '\t' << unit.processes << '\t'
      << fixed2(unit.seconds) << '\t' << fixed2(spent[0]) << '\t' << fixed2(unit.started_epoch) << '\t'
      << fixed2(std::max(0.0, unit.seconds - in_cases));
  for (std::size_t k = 1; k < std::size(spent); ++k) out << '\t' << fixed2(spent[k]);  // every kind but input, in order
  out << '\t' << (unit.gpu.empty() ? std::string("-") : unit.gpu);
  out << '\t' << fixed2(device_open);  // last: a column added after the GPU's
  return out.str();
}

std::string resource_gpu_index() {
  // The same entry a test process pins itself to (fixtures/gpu_environment.hpp).
  return gpu::visible_devices_for_resource(gpu::device_from_ctest_resource(std::getenv("CTEST_RESOURCE_GROUP_0_GPUS")),
                                           std::getenv("CUDA_VISIBLE_DEVICES"))
      .value_or("");
}

}  // namespace kc::runner
