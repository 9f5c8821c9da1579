#include "grading/submission_library.hpp"

#include "fixtures/generators.hpp"
#include "fixtures/run_cache.hpp"
#include "grading/library_watch.hpp"

#include <dlfcn.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace kc::grading {

namespace {
// Whether a grading process may share CPU references on disk (fixtures/run_cache.hpp): scripts/grade.sh
// gives a batch one folder (KCONFORM_RUN_CACHE, mode 0700), so a class graded with one seed computes
// each reference once (issue 33). The submission runs in the executor, another process started with
// an environment of the judge's choosing, so it cannot point a judge at a folder of its own; what
// keeps it from planting references in the batch's folder is the sandbox: uid 65534 cannot write a
// folder the grader owns with mode 0700 (and Landlock lets it write its scratch only). A judge not
// running as root cannot drop the executor to uid 65534, and one told to run it without the sandbox
// (KCONFORM_EXECUTOR_SANDBOX=off, developers only) has neither layer: those never read or write the
// cache, nor does a judge whose executor started without the uid drop (remote_submission.cpp). Off
// at static initialisation, before main(); there is no way back on.
bool executor_can_write_the_cache() {
  const char* sandbox = std::getenv("KCONFORM_EXECUTOR_SANDBOX");
  return geteuid() != 0 || (sandbox != nullptr && std::string(sandbox) == "off");
}
[[maybe_unused]] const bool run_cache_off_unless_sandboxed =
    (executor_can_write_the_cache() ? run_cache::disable_in_this_process() : void(), true);
}  // namespace

const std::optional<json::value>& submission_traits() {
  static const std::optional<json::value> traits = []() -> std::optional<json::value> {
    const char* path = std::getenv("KCONFORM_SUBMISSION_TRAITS");
    if (path == nullptr || *path == '\0') return std::nullopt;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    std::optional<json::value> parsed = json::parse(text.str(), &error);
    if (!in || !parsed || !parsed->is_object()) {
      std::cerr << "kconform grading: KCONFORM_SUBMISSION_TRAITS=" << path << " is not a traits file ("
                << (in ? error : "unreadable") << ")\n";
      std::exit(2);
    }
    return parsed;
  }();
  return traits;
}

void* submission_entry(const char* name) {
  static std::once_flag loaded;
  static void* library = nullptr;
  static std::string load_error;
  std::call_once(loaded, [] {
    const char* path = std::getenv("KCONFORM_SUBMISSION");
    if (path == nullptr || *path == '\0') {
      load_error = "KCONFORM_SUBMISSION is not set: no submission to grade";
      return;
    }
    // The run's seed is fixed before any of the submission's code can run (its static initialisers
    // run inside dlopen): it cannot choose its own inputs by setting KCONFORM_SEED.
    (void)base_seed();
    // What is loaded from here on, the submission's doing or not, is checked for library code.
    watch_libraries_from_here(path);
    // RTLD_LOCAL: nothing the library defines interposes on this program's symbols.
    library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) load_error = std::string("could not load the submission: ") + dlerror();
  });
  if (library == nullptr) throw std::runtime_error(load_error);
  void* entry = dlsym(library, name);
  if (entry == nullptr)
    throw std::runtime_error(std::string("the submission does not export ") + name +
                             " (declare it as in its contract header, with KC_SUBMISSION_EXPORT)");
  return entry;
}

launch_status status_after_entry(const char* refusal, const char* entry) {
  if (refusal == nullptr) {
    // The executor's word on the launch: cudaGetLastError() after the entry returned, else what the
    // device said when the executor waited for it (a non-sticky error; a sticky one ended the case).
    if (const std::optional<wire::reply>& r = remote::last_reply(); r && r->made) {
      if (r->launch_error != 0) return launch_status::failed(static_cast<cudaError_t>(r->launch_error), entry);
      if (r->sync_error != 0) return launch_status::failed(static_cast<cudaError_t>(r->sync_error), entry);
    }
    return launch_status::ok();
  }
  std::string text;
  for (std::size_t i = 0; i < 2000 && refusal[i] != '\0'; ++i) {
    const unsigned char c = static_cast<unsigned char>(refusal[i]);
    text += (c >= 0x20 && c < 0x7F) || c == '\n' || c == '\t' || c >= 0x80 ? static_cast<char>(c) : '?';
  }
  return launch_status::refused("the submission refused: " + text);
}

void expect_within_memory_limit() {
  // Library code the submission reached at run time, for tools/grade_report's hand_written rule: the
  // executor's library watch (grading/library_watch.hpp) says it with every reply.
  if (const std::optional<std::string> found = remote::runtime_libraries(); found && !found->empty())
    ::testing::Test::RecordProperty("runtime_libraries", *found);
  // The sandbox layers the submission ran under (and those this machine refused), with every case.
  if (const std::string layers = remote::sandbox_description(); !layers.empty())
    ::testing::Test::RecordProperty("sandbox", layers);
  // The case that started the executor says how long its start took, in parts (remote::startup_timing):
  // each grading unit's first case took ~4.3 s alone on an H100 at b498e02 and its others ~1 ms, and
  // these say how much of that is the executor's start.
  if (const std::optional<remote::startup_timing> startup = remote::take_startup_timing()) remote::record_startup(*startup);
  // The case's seconds waiting for its own staging and in exchanges with the submission's process
  // (remote::exchange_seconds; scripts/class_timeline.sh splits the cases' seconds by them). Under
  // half a millisecond is left out, as fixtures/case_progress.cpp leaves out such a time_spent kind.
  const remote::exchange_seconds spent = remote::take_exchange_seconds();
  for (const auto& [name, seconds] : {std::pair{"staging_seconds", spent.staging}, std::pair{"calls_seconds", spent.calls}})
    if (seconds >= 0.0005) {
      char text[32];
      std::snprintf(text, sizeof text, "%.3f", seconds);
      ::testing::Test::RecordProperty(name, text);
    }
  const remote::guard_readout readout = remote::take_memory_refusals();
  if (!readout.guard_found) {
    // grade.sh links the guard into every submission, exported: a library without it was built by
    // other means, or hides the guard's exports (a declaration of its own, hidden), and its memory
    // refusals and launches could not be read. A case the guard cannot vouch for fails.
    ADD_FAILURE() << "the submission's library does not export the grader's guard (kc_grader_memory_refusals): "
                     "grade it through scripts/grade.sh, which links the guard in, and declare none of its symbols";
    return;
  }
  if (readout.refusals > 0)
    ADD_FAILURE() << "device memory limit: the submission asked for " << readout.largest << " bytes ("
                  << (readout.largest >> 20) << " MiB) while holding " << (readout.held >> 20)
                  << " MiB, past the grader's limit of " << (readout.limit >> 20)
                  << " MiB per process (KCONFORM_SUBMISSION_MEMORY_LIMIT_MIB): refused as out of memory, "
                  << readout.refusals
                  << " time(s) in this case. Grading processes share the GPU; one that takes its memory starves the rest.";
}

int traits_int(const json::value& traits, const char* key, int fallback) {
  const json::value* member = traits.find(key);
  if (member != nullptr && member->as_bool() != nullptr) return *member->as_bool() ? 1 : 0;
  return member != nullptr && member->as_number() != nullptr ? static_cast<int>(*member->as_number()) : fallback;
}

std::vector<int> traits_ints(const char* key) {
  std::vector<int> out;
  const std::optional<json::value>& traits = submission_traits();
  if (!traits) return out;
  if (const json::value* list = traits->find(key); list != nullptr && list->as_array() != nullptr)
    for (const json::value& x : *list->as_array())
      if (x.as_number() != nullptr) out.push_back(static_cast<int>(*x.as_number()));
  return out;
}

std::vector<std::pair<int, int>> traits_int_pairs(const char* key) {
  std::vector<std::pair<int, int>> out;
  const std::optional<json::value>& traits = submission_traits();
  if (!traits) return out;
  if (const json::value* list = traits->find(key); list != nullptr && list->as_array() != nullptr)
    for (const json::value& pair : *list->as_array())
      if (const json::array* p = pair.as_array(); p != nullptr && p->size() == 2 && (*p)[0].as_number() && (*p)[1].as_number())
        out.emplace_back(static_cast<int>(*(*p)[0].as_number()), static_cast<int>(*(*p)[1].as_number()));
  return out;
}

}  // namespace kc::grading
