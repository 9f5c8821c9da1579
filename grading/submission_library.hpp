// The submission under grading: its shared library (loaded on first use) and the traits its build
// step recorded (docs/grading.md).
//
//   KCONFORM_SUBMISSION         the submission's .so, built by scripts/grade.sh on its own: the suite's
//                               code is not linked into it, and it is loaded RTLD_LOCAL into a program
//                               that exports no symbols, so it can neither call nor replace the suite's
//   KCONFORM_SUBMISSION_TRAITS  the traits JSON kconform_submission_probe wrote at build time. The
//                               case list comes from it, so listing never runs the submission's code.
//
// With neither set (an ordinary build, CI) a grading program has no submission and lists no case.
#pragma once

#include "fixtures/json_text.hpp"
#include "grading/executor/remote_submission.hpp"
#include "kernels/launch.hpp"

#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kc::grading {

// The traits JSON of this process's submission; nullopt when KCONFORM_SUBMISSION_TRAITS is unset.
// A file that is set but unreadable or malformed ends the program with a message (exit 2): the
// grader built it, so that is the grader's fault, never the student's.
const std::optional<json::value>& submission_traits();

// The address of an entry point of the submission, loaded into *this* process (dlsym on the library,
// loaded on first call). Grading programs never call it: the submission runs in its executor
// (grading/executor/remote_submission.hpp). It stays for the CPU tests of the library watch and the
// seed latch, which load fake submissions in their own process.
void* submission_entry(const char* name);

// The entry point `name` as a proxy with F's signature that calls it in the executor, or a null proxy
// with *missing set to a refusal that says why (no submission, it does not load, or it does not
// export `name`): the launch adapters' way in.
template <class F>
remote::remote_entry<F> find_entry(const char* name, launch_status* missing) {
  try {
    if (remote::exports(name)) return remote::remote_entry<F>(name);
    *missing = launch_status::refused(std::string("the submission does not export ") + name +
                                      " (declare it as in its contract header, with KC_SUBMISSION_EXPORT)");
  } catch (const remote::executor_lost&) {
    throw;  // it died starting: the case fails as it died (exit, crash), not as a refusal
  } catch (const std::exception& e) {
    *missing = launch_status::refused(e.what());
  }
  return {};
}

// What an entry point's return means: a refusal with its message (at most 2000 bytes, non-printable
// bytes replaced, so a garbage pointer cannot break the report), else the runtime's verdict on the
// launch it made (cudaGetLastError in the executor, or the device's error after it: the last reply).
launch_status status_after_entry(const char* refusal, const char* entry);

// Fails the current case if the submission asked for more device memory than its limit since the
// last call (grading/submission_guard.cpp keeps the count inside the submission's library), and
// records the case property `runtime_libraries`: the library code found in this process at run time
// (grading/library_watch.hpp; "" when none). Every graded case calls it after its check.
void expect_within_memory_limit();

// An integer member of a traits object; `fallback` when absent.
int traits_int(const json::value& traits, const char* key, int fallback);

// The submission's declared list `key` (the probe wrote and checked it): integers ("blocks": [256, 32])
// or integer pairs ("configs": [[16, 16], [8, 8]]). Empty without a submission or without the key.
std::vector<int> traits_ints(const char* key);
std::vector<std::pair<int, int>> traits_int_pairs(const char* key);

}  // namespace kc::grading
