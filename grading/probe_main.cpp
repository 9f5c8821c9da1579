// kconform_submission_probe <family> <submission.so>
//
// Run by scripts/grade.sh right after a submission builds, in a process of its own (the library's
// static constructors run here, so one that crashes or exits costs this probe, not the grading).
// Loads the library, checks that it exports its family's entry points, calls its traits function
// and checks the traits describe something gradable (each family's reader: probe/<family>_traits.cpp).
// Prints the traits as JSON (the grading programs' case list comes from that file: generated
// registration, no edit to the suite).
// `record` (also run by grade.sh) writes the build step's outcome as build.json.
// Exit: 0 traits printed; 3 a signature problem (missing entry point, wrong contract version,
// traits that cannot be graded), the reason on stderr; 4 the library does not load; 2 usage.
#include "fixtures/json_text.hpp"
#include "grading/contract/kconform_submission.h"
#include "grading/probe/probe.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace kc::probe {

void signature_problem(const std::string& why) {
  std::cerr << why << '\n';
  std::exit(3);
}

void* entry(void* library, const char* name, const char* contract) {
  void* found = dlsym(library, name);
  if (found == nullptr)
    signature_problem(std::string("the submission does not define ") + name + ": implement it as " + contract +
                      " declares it (extern \"C\", with KC_SUBMISSION_EXPORT)");
  return found;
}

void check_abi(int abi) {
  if (abi != KC_SUBMISSION_ABI)
    signature_problem("traits.abi is " + std::to_string(abi) + ", this grader's contract is version " +
                      std::to_string(KC_SUBMISSION_ABI) + ": set abi = KC_SUBMISSION_ABI");
}

std::vector<int> declared_blocks(std::span<const int> entries, const std::string& hint) {
  std::vector<int> blocks;
  for (const int block : entries) {
    if (block == 0) continue;
    if (block < 1 || block > 1024)
      signature_problem("traits declare block " + std::to_string(block) + ": a block has 1 to 1024 threads");
    if (std::find(blocks.begin(), blocks.end(), block) != blocks.end())
      signature_problem("traits declare block " + std::to_string(block) + " twice: list each block once");
    blocks.push_back(block);
  }
  if (blocks.empty()) signature_problem("traits declare no block: fill traits.blocks (" + hint + ")");
  return blocks;
}

json::array as_json(const std::vector<int>& values) {
  json::array out;
  for (const int v : values) out.push_back(v);
  return out;
}

namespace {
std::map<std::string, traits_reader>& readers() {
  static std::map<std::string, traits_reader> families;
  return families;
}
}  // namespace

family_registration::family_registration(const char* family, traits_reader read) { readers()[family] = read; }

}  // namespace kc::probe

namespace {

std::string family_names() {
  std::string names;
  for (const auto& [name, read] : kc::probe::readers()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

std::string read_text(const std::string& path, std::size_t limit) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string out = text.str();
  if (out.size() > limit) out = out.substr(0, limit) + "\n[... cut at " + std::to_string(limit) + " bytes]";
  return out;
}

kc::json::array read_lines(const std::string& path) {
  kc::json::array lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// record <status> <log> <libraries.txt> <suite_symbols.txt> <traits.json> <build seconds>:
// the build step's outcome as one JSON object (build.json, which tools/grade_report reads).
int record(char** argv) {
  const std::string status = argv[2];
  std::string error;
  std::optional<kc::json::value> traits = kc::json::parse(read_text(argv[6], 1 << 20), &error);
  return std::cout << kc::json::dump(kc::json::object{{"status", status},
                                                      {"log", read_text(argv[3], 200000)},
                                                      {"libraries", read_lines(argv[4])},
                                                      {"suite_symbols", read_lines(argv[5])},
                                                      {"traits", traits ? *traits : kc::json::value()},
                                                      {"seconds", std::atof(argv[7])}})
                   << '\n'
             ? 0
             : 1;
}

int main(int argc, char** argv) {
  if (argc == 8 && std::string(argv[1]) == "record") return record(argv);
  if (argc != 3) {
    std::cerr << "usage: kconform_submission_probe <" << family_names() << "> <submission.so>\n"
                 "       kconform_submission_probe record <status> <log> <libraries> <suite symbols> <traits> <seconds>\n";
    return 2;
  }
  const auto family = kc::probe::readers().find(argv[1]);
  if (family == kc::probe::readers().end()) {
    std::cerr << "unknown family " << argv[1] << " (" << family_names() << ")\n";
    return 2;
  }
  // The traits go to the probe's own copy of stdout; from here on, stdout is stderr: whatever the
  // submission prints while it loads (static constructors) or while its traits function runs lands
  // in probe.log, never in traits.json (printed text must not change a grade: a "debug: traits" line
  // there made the file unreadable and the grading program end with no case run).
  std::fflush(stdout);
  const int traits_fd = dup(STDOUT_FILENO);
  if (traits_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::cerr << "kconform_submission_probe: cannot set stdout aside\n";
    return 2;
  }
  void* library = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::cerr << "the submission does not load: " << dlerror() << '\n';
    return 4;
  }
  const std::string traits = kc::json::dump(family->second(library)) + '\n';
  std::cout.flush();
  std::fflush(stdout);
  for (std::size_t written = 0; written < traits.size();) {
    const ssize_t n = write(traits_fd, traits.data() + written, traits.size() - written);
    if (n <= 0) {
      std::cerr << "kconform_submission_probe: cannot write the traits\n";
      return 2;
    }
    written += static_cast<std::size_t>(n);
  }
  return 0;
}
