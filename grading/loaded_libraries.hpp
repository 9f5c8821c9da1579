// Which shared libraries in a grading process are library code the rubric's `hand_written` rule
// forbids (issue 19 item 3). The static scan in scripts/grade.sh sees only what the submission's .so
// imports; a submission that dlopen()s a library with a name it builds at run time is seen only here,
// by what the process has loaded. Pure functions of paths, so the rules are tested without a GPU
// (tests/grading/runtime_libraries_cpu_test.cpp); grading/library_watch.cpp applies them.
//
// A library is flagged when its file name says it is library code (the CUDA math and compilation
// libraries, anything named CUTLASS, CUB or Thrust, a host BLAS), or when it was loaded from outside
// the system and CUDA directories: code the submission brought with it or wrote at run time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kc::grading {

// What the file name says the library is ("cuBLAS", "NVRTC (run-time compilation)", ...), or "" when
// it names none of the flagged families. Case-insensitive, on the last path component only.
std::string library_code_named(std::string_view path);

// Whether `path` lies under a directory trusted to hold only system, compiler and CUDA libraries:
// /lib, /lib32, /lib64, /libx32, the same under /usr, /usr/local/cuda, /usr/local/cuda-<version>,
// /usr/local/nvidia, or one of `extra_dirs` (where the grading program loaded its own libraries from
// before the submission, and any the instructor names). Compared by whole path components, so
// /usr/lib64x or /library is not /usr/lib64 or /lib; a relative path, or one with "." or "..", is
// not trusted.
bool under_trusted_dirs(std::string_view path, const std::vector<std::string>& extra_dirs);

struct library_finding {
  std::string what;  // "cuBLAS", or "a library from outside the system and CUDA directories"
  std::string path;
  std::string how;   // "loaded at run time", "called from the submission: cublasSgemm_v2"
};

// The libraries in `now` that are not in `before` (the snapshot taken just before the submission was
// loaded) and are library code or come from outside the trusted directories. The submission's own
// library is allowed. Paths are compared as given: the caller resolves them (realpath) first.
std::vector<library_finding> new_library_code(const std::vector<std::string>& before,
                                              const std::vector<std::string>& now, const std::string& submission,
                                              const std::vector<std::string>& extra_dirs);

// "cuBLAS: /usr/local/cuda/lib/libcublas.so.13 (loaded at run time)", with any ';', tab or control
// character replaced by '?': findings are joined with "; " into one gtest property, whose values
// travel tab-separated (fixtures/case_progress.hpp).
std::string describe(const library_finding& finding);
std::string property_text(const std::vector<library_finding>& findings);

}  // namespace kc::grading
