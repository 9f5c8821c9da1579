#include "tools/run_report/junit_reader.hpp"

#include "fixtures/json_text.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <optional>

namespace kc::run_report {

namespace {

struct xml_tag {
  std::string name;
  bool closing = false;       // </name>
  bool self_closing = false;  // <name ... />
  property_list attributes;
  std::string attribute(std::string_view key) const { return property_of(attributes, key); }
};

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The tag that opens at text[start] ('<'); the position after its '>', or nullopt when the text ends
// first. Attribute values may hold '>' (quoted), so the end is found by walking the attributes.
std::optional<std::size_t> read_tag(std::string_view text, std::size_t start, xml_tag& tag) {
  std::size_t i = start + 1;
  const std::size_t n = text.size();
  if (i < n && text[i] == '/') tag.closing = true, ++i;
  while (i < n && !is_space(text[i]) && text[i] != '>' && text[i] != '/') tag.name += text[i++];
  while (i < n) {
    while (i < n && is_space(text[i])) ++i;
    if (i >= n) break;
    if (text[i] == '>') return i + 1;
    if (text[i] == '/' && i + 1 < n && text[i + 1] == '>') {
      tag.self_closing = true;
      return i + 2;
    }
    std::string key;
    while (i < n && !is_space(text[i]) && text[i] != '=' && text[i] != '>' && text[i] != '/') key += text[i++];
    while (i < n && is_space(text[i])) ++i;
    if (i >= n) break;
    if (text[i] != '=') {
      if (key.empty()) ++i;  // a stray character: step over it
      continue;
    }
    ++i;
    while (i < n && is_space(text[i])) ++i;
    if (i >= n) break;
    const char quote = text[i];
    if (quote != '"' && quote != '\'') continue;
    const std::size_t close = text.find(quote, i + 1);
    if (close == std::string_view::npos) break;
    tag.attributes.emplace_back(std::move(key), xml_unescape(text.substr(i + 1, close - i - 1)));
    i = close + 1;
  }
  return std::nullopt;
}

double seconds_of(const std::string& text) { return text.empty() ? 0.0 : std::strtod(text.c_str(), nullptr); }
int count_of(const std::string& text) { return text.empty() ? 0 : std::atoi(text.c_str()); }

}  // namespace

std::string xml_unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t semicolon = text[i] == '&' ? text.find(';', i) : std::string_view::npos;
    if (semicolon == std::string_view::npos || semicolon - i > 10) {
      out += text[i];
      continue;
    }
    const std::string_view entity = text.substr(i + 1, semicolon - i - 1);
    if (entity == "amp") out += '&';
    else if (entity == "lt") out += '<';
    else if (entity == "gt") out += '>';
    else if (entity == "quot") out += '"';
    else if (entity == "apos") out += '\'';
    else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const std::string digits(entity.substr(hex ? 2 : 1));
      char* end = nullptr;
      const unsigned long code = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      if (digits.empty() || *end != '\0' || code > 0x10FFFF) {
        out += text[i];
        continue;
      }
      json::append_utf8(out, static_cast<std::uint32_t>(code));
    } else {
      out += text[i];
      continue;
    }
    i = semicolon;
  }
  return out;
}

std::string property_of(const property_list& properties, std::string_view name) {
  std::string value;
  for (const auto& [key, v] : properties)
    if (key == name) value = v;
  return value;
}

std::vector<junit_suite> parse_junit(std::string_view text) {
  std::vector<junit_suite> suites;
  // Indices, not pointers: the vectors grow while they are filled.
  std::optional<std::size_t> suite, test;
  enum class sink { none, failure, output } text_to = sink::none;
  const auto current_case = [&]() -> junit_case* { return suite && test ? &suites[*suite].cases[*test] : nullptr; };
  const auto take_text = [&](std::string_view raw, bool escaped) {
    junit_case* c = current_case();
    if (c == nullptr || text_to == sink::none) return;
    std::string& into = text_to == sink::failure ? c->text : c->output;
    into += escaped ? xml_unescape(raw) : std::string(raw);
  };

  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find('<', pos);
    take_text(text.substr(pos, open == std::string_view::npos ? std::string_view::npos : open - pos), true);
    if (open == std::string_view::npos) break;
    const std::string_view rest = text.substr(open);
    if (rest.starts_with("<!--") || rest.starts_with("<![CDATA[") || rest.starts_with("<?") || rest.starts_with("<!")) {
      const bool cdata = rest.starts_with("<![CDATA[");
      const std::string_view terminator = rest.starts_with("<!--") ? "-->" : cdata ? "]]>" : ">";
      const std::size_t end = text.find(terminator, open);
      if (end == std::string_view::npos) break;
      if (cdata) take_text(text.substr(open + 9, end - open - 9), false);
      pos = end + terminator.size();
      continue;
    }
    xml_tag tag;
    const std::optional<std::size_t> end = read_tag(text, open, tag);
    if (!end) break;  // cut short inside a tag: keep what came before
    pos = *end;

    if (tag.name == "testsuite") {
      if (tag.closing) {
        suite.reset();
        test.reset();
        continue;
      }
      junit_suite s;
      s.name = tag.attribute("name");
      s.seconds = seconds_of(tag.attribute("time"));
      s.tests = count_of(tag.attribute("tests"));
      s.failures = count_of(tag.attribute("failures"));
      s.skipped = count_of(tag.attribute("skipped"));
      s.disabled = count_of(tag.attribute("disabled"));
      suites.push_back(std::move(s));
      if (tag.self_closing) suite.reset();
      else suite = suites.size() - 1;
      test.reset();
    } else if (tag.name == "testcase") {
      if (tag.closing) {
        test.reset();
        text_to = sink::none;
        continue;
      }
      if (!suite) {
        suites.emplace_back();
        suite = suites.size() - 1;
      }
      junit_case c;
      c.classname = tag.attribute("classname");
      c.name = tag.attribute("name");
      c.status = tag.attribute("status");
      c.seconds = seconds_of(tag.attribute("time"));
      suites[*suite].cases.push_back(std::move(c));
      if (tag.self_closing) test.reset();
      else test = suites[*suite].cases.size() - 1;
    } else if (tag.name == "property" && !tag.closing) {
      property_list* into = current_case() ? &current_case()->properties : suite ? &suites[*suite].properties : nullptr;
      if (into) into->emplace_back(tag.attribute("name"), tag.attribute("value"));
    } else if (junit_case* c = current_case(); c != nullptr) {
      if (tag.name == "failure" || tag.name == "error") {
        if (!tag.closing) {
          c->failed = true;
          c->message = tag.attribute("message");
        }
        text_to = tag.closing || tag.self_closing ? sink::none : sink::failure;
      } else if (tag.name == "skipped" && !tag.closing) {
        c->skipped = true;
        c->message = tag.attribute("message");
      } else if (tag.name == "system-out" || tag.name == "system-err") {
        text_to = tag.closing || tag.self_closing ? sink::none : sink::output;
      }
    }
  }
  return suites;
}

}  // namespace kc::run_report
