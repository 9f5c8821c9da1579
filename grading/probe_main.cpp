// kconform_submission_probe <reduction|matmul> <submission.so>
//
// Run by scripts/grade.sh right after a submission builds, in a process of its own (the library's
// static constructors run here, so one that crashes or exits costs this probe, not the grading).
// Loads the library, checks that it exports its family's entry points, calls its traits function
// and checks the traits describe something gradable. Prints the traits as JSON (the grading
// programs' case list comes from that file: generated registration, no edit to the suite).
// `record` (also run by grade.sh) writes the build step's outcome as build.json.
// Exit: 0 traits printed; 3 a signature problem (missing entry point, wrong contract version,
// traits that cannot be graded), the reason on stderr; 4 the library does not load; 2 usage.
#include "fixtures/json_text.hpp"
#include "grading/contract/kconform_matmul_submission.h"
#include "grading/contract/kconform_reduction_submission.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

namespace {

[[noreturn]] void signature_problem(const std::string& why) {
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

bool is_power_of_two(int x) { return x > 0 && (x & (x - 1)) == 0; }

kc::json::value reduction_traits(void* library) {
  const char* contract = "kconform_reduction_submission.h";
  const auto traits_fn = reinterpret_cast<kc_reduction_traits (*)()>(entry(library, "kc_reduction_submission_traits", contract));
  const kc_reduction_traits t = traits_fn();
  check_abi(t.abi);
  if (t.kind != KC_REDUCE_PASS && t.kind != KC_REDUCE_FULL)
    signature_problem("traits.kind is " + std::to_string(t.kind) + ": use KC_REDUCE_PASS or KC_REDUCE_FULL");
  const bool own_block = t.kind == KC_REDUCE_FULL && t.min_block == 0;
  if (!own_block) {
    if (t.min_block < 1 || t.max_block < t.min_block || t.max_block > 1024)
      signature_problem("traits declare blocks " + std::to_string(t.min_block) + " to " + std::to_string(t.max_block) +
                        ": need 1 <= min_block <= max_block <= 1024" +
                        (t.kind == KC_REDUCE_FULL ? " (or min_block = 0: your code picks its block)" : ""));
    if (t.block_multiple < 1) signature_problem("traits.block_multiple must be >= 1 (1: any block)");
    bool any = false;
    for (int b = t.min_block; b <= t.max_block && !any; ++b)
      any = b % t.block_multiple == 0 && (!t.power_of_two_blocks || is_power_of_two(b));
    if (!any) signature_problem("no block satisfies the traits' block rule: nothing could be graded");
  }
  if (t.kind == KC_REDUCE_PASS) {
    entry(library, "kc_reduction_pass", contract);
    if (t.elements_per_thread < 1) signature_problem("traits.elements_per_thread must be >= 1");
  } else {
    entry(library, "kc_reduction_full", contract);
    entry(library, "kc_reduction_scratch_floats", contract);
  }
  return kc::json::object{{"family", "reduction"},
                          {"abi", t.abi},
                          {"kind", t.kind == KC_REDUCE_PASS ? "pass" : "full"},
                          {"min_block", t.min_block},
                          {"max_block", t.max_block},
                          {"power_of_two_blocks", t.power_of_two_blocks != 0},
                          {"block_multiple", t.block_multiple},
                          {"elements_per_thread", t.elements_per_thread},
                          {"grid_stride", t.grid_stride != 0},
                          {"destroys_input", t.destroys_input != 0}};
}

kc::json::value matmul_traits(void* library) {
  const char* contract = "kconform_matmul_submission.h";
  const auto traits_fn = reinterpret_cast<kc_matmul_traits (*)()>(entry(library, "kc_matmul_submission_traits", contract));
  entry(library, "kc_matmul", contract);
  const kc_matmul_traits t = traits_fn();
  check_abi(t.abi);
  if (t.block_dims != 1 && t.block_dims != 2) signature_problem("traits.block_dims must be 1 or 2");
  kc::json::array configs;
  for (const kc_matmul_config& c : t.configs) {
    if (c.block == 0 && c.tile_width == 0) continue;
    const int threads = t.block_dims == 2 ? c.block * c.block : c.block;
    if (c.block < 1 || c.tile_width < 1 || threads > 1024)
      signature_problem("traits declare configuration {block " + std::to_string(c.block) + ", tile_width " +
                        std::to_string(c.tile_width) + "}: need block >= 1, tile_width >= 1 and at most 1024 threads");
    configs.push_back(kc::json::array{c.block, c.tile_width});
  }
  if (configs.empty()) signature_problem("traits declare no configuration: fill traits.configs");
  return kc::json::object{{"family", "matmul"},
                          {"abi", t.abi},
                          {"block_dims", t.block_dims},
                          {"reads_c", t.reads_c != 0},
                          {"configs", std::move(configs)}};
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
    std::cerr << "usage: kconform_submission_probe <reduction|matmul> <submission.so>\n"
                 "       kconform_submission_probe record <status> <log> <libraries> <suite symbols> <traits> <seconds>\n";
    return 2;
  }
  const std::string family = argv[1];
  if (family != "reduction" && family != "matmul") {
    std::cerr << "unknown family " << family << " (reduction, matmul)\n";
    return 2;
  }
  void* library = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::cerr << "the submission does not load: " << dlerror() << '\n';
    return 4;
  }
  std::cout << kc::json::dump(family == "reduction" ? reduction_traits(library) : matmul_traits(library)) << '\n';
  return 0;
}
