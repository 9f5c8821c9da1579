#include "tools/runner/case_listing.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kc::runner {
namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// The value of "key:<value>" in the printed parameter ("" if absent).
std::string printed_field(const std::string& printed, const std::string& key) {
  std::istringstream words(printed);
  std::string word;
  while (words >> word)
    if (word.rfind(key + ':', 0) == 0) return word.substr(key.size() + 1);
  return {};
}

}  // namespace

std::vector<listed_case> parse_gtest_listing(const std::string& listing) {
  std::vector<listed_case> cases;
  std::istringstream lines(listing);
  std::string line, suite;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      // "Suite/Fixture." (a suite line); anything else (gtest's notes) is not a suite.
      const std::string text = trim(line);
      suite = !text.empty() && text.back() == '.' ? text : std::string();
      continue;
    }
    if (suite.empty()) continue;
    const std::string text = trim(line);
    const auto comment = text.find("  #");
    const std::string test = trim(comment == std::string::npos ? text : text.substr(0, comment));
    const std::string printed = comment == std::string::npos ? std::string() : text.substr(comment);
    listed_case c;
    c.name = suite + test;
    c.unit = printed_field(printed, "unit");
    if (c.unit.empty()) {  // the fixture's name: "Matmul/KnownBadMatmul." -> "KnownBadMatmul"
      const std::string fixture = suite.substr(0, suite.size() - 1);
      c.unit = fixture.substr(fixture.rfind('/') + 1);
    }
    if (const std::string cost = printed_field(printed, "cost"); !cost.empty()) c.cost = std::atof(cost.c_str());
    cases.push_back(std::move(c));
  }
  return cases;
}

std::map<std::string, unit_summary> summarise_units(const std::vector<listed_case>& cases) {
  std::map<std::string, unit_summary> units;
  for (const listed_case& c : cases) {
    unit_summary& u = units[c.unit];
    ++u.cases;
    u.cost += c.cost;
  }
  return units;
}

namespace {
constexpr const char* listing_cache_magic = "kconform-listing-cache 1";
}  // namespace

std::string program_fingerprint(const std::string& exe) {
  struct ::stat info {};
  if (::stat(exe.c_str(), &info) != 0) return {};
  std::ostringstream out;
  out << exe << " size " << info.st_size << " modified " << info.st_mtim.tv_sec << '.' << info.st_mtim.tv_nsec;
  return out.str();
}

std::optional<std::string> read_listing_cache(const std::string& cache_file, const std::string& exe) {
  const std::string fingerprint = program_fingerprint(exe);
  if (fingerprint.empty()) return std::nullopt;
  std::ifstream in(cache_file);
  std::string magic, recorded;
  if (!std::getline(in, magic) || magic != listing_cache_magic || !std::getline(in, recorded) || recorded != fingerprint)
    return std::nullopt;
  std::ostringstream listing;
  listing << in.rdbuf();
  return listing.str();
}

bool write_listing_cache(const std::string& cache_file, const std::string& exe, const std::string& listing) {
  const std::string fingerprint = program_fingerprint(exe);
  if (fingerprint.empty()) return false;
  const std::string temporary = cache_file + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << listing_cache_magic << '\n' << fingerprint << '\n' << listing;
    if (!out.flush()) {
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), cache_file.c_str()) != 0) {
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace kc::runner
