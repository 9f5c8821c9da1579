// The run-time half of the `hand_written` check (issue 19 item 3): library code the submission uses
// without importing it (dlopen() and dlsym() with names built at run time, which scripts/grade.sh's
// symbol scan cannot see), found in the grading process after the submission has run.
//
// Two ways, because "loaded" alone cannot tell for a library the grader loads itself:
//   * new libraries: what the process has loaded now that it had not just before the submission's
//     library was loaded, classified by grading/loaded_libraries.hpp (library code by name, or from
//     outside the system and CUDA directories). The submission's own dependencies are part of this:
//     grade.sh links -lcublas, but --as-needed keeps libcublas out of a submission that imports no
//     cuBLAS symbol, so a libcublas that arrives with the submission means it is used.
//   * cuBLAS calls: the grading program itself holds cuBLAS and cuBLASLt before the submission loads
//     (the matmul program links them for its reference variant; the others load them here), so a
//     submission's dlopen of them returns the grader's copy and appears as nothing new, and its
//     dlclose cannot unload them. Their own loggers (cublasSetLoggerCallback,
//     cublasLtLoggerSetCallback) report every API call; a call with the submission's code on the
//     stack is recorded. The grader's own cuBLAS calls have none of its frames.
// Not seen: a library other than cuBLAS that the submission loads and unloads again (dlclose) within
// one case, and a submission written to defeat the watch (turning the loggers off): see the threat
// model in docs/grading.md.
#pragma once

#include <optional>
#include <string>

namespace kc::grading {

// Starts the watch; submission_entry calls it once, just before it loads `submission_path` (the path
// exactly as given to dlopen, which is how the submission's frames are named). Extra trusted
// directories come from KCONFORM_TRUSTED_LIBRARY_DIRS (colon-separated), for a machine whose CUDA or
// compiler libraries live elsewhere.
void watch_libraries_from_here(const std::string& submission_path);

// Library code found so far in this process, as the text of the `runtime_libraries` case property
// ("cuBLAS: /usr/local/cuda/lib/libcublas.so.13 (called from the submission: cublasSgemm_v2)", joined
// by "; "; "" when none); nullopt when no submission was loaded here. Cumulative, so a library found
// in one case is reported by every later case of the process.
std::optional<std::string> library_code_found();

}  // namespace kc::grading
