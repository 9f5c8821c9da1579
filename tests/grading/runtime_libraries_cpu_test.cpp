// The run-time half of the hand_written check (grading/loaded_libraries.hpp, grading/library_watch.hpp),
// on any machine: the classifier on lists of paths, then the watch in this process with a fake
// submission (tests/grading/fake_libraries) that loads cuBLAS and a library of its own by names given
// at run time. cuBLAS logs a call even where cublasCreate fails for want of a GPU, so the attribution
// of calls to the submission is tested here too. Each test runs in a process of its own under CTest.
#include "grading/library_watch.hpp"
#include "grading/loaded_libraries.hpp"
#include "grading/submission_library.hpp"

#include <cublas_api.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

namespace kc::grading {
namespace {

namespace fs = std::filesystem;

TEST(LibraryCode, NamesSayWhichLibraryFamily) {
  const std::pair<const char*, const char*> named[] = {
      {"/usr/local/cuda/lib64/libcublas.so.13", "cuBLAS"},
      {"/usr/local/cuda-13.0/lib/libcublasLt.so.13", "cuBLAS"},
      {"/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9", "cuDNN"},
      {"/usr/local/cuda/lib64/libnvrtc.so.13", "NVRTC (run-time compilation)"},
      {"/usr/local/cuda/lib64/libnvrtc-builtins.so.13.0", "NVRTC (run-time compilation)"},
      {"/usr/local/cuda/lib64/libnvJitLink.so.13", "nvJitLink (run-time linking)"},
      {"/usr/local/cuda/lib64/libcusparseLt.so.0", "cuSPARSE"},
      {"/usr/local/cuda/lib64/libcusolver.so.12", "cuSOLVER"},
      {"/usr/local/cuda/lib64/libcufftw.so.12", "cuFFT"},
      {"/usr/local/cuda/lib64/libcurand.so.10", "cuRAND"},
      {"/opt/x/libcutensor.so.2", "cuTENSOR"},
      {"/tmp/build/libMyCUTLASSGemm.so", "CUTLASS"},
      {"/tmp/build/libthrust_sort.so", "Thrust"},
      {"/tmp/build/libcub.so", "CUB"},
      {"/tmp/build/my-cub-kernels.so", "CUB"},
      {"/usr/lib/x86_64-linux-gnu/libopenblasp-r0.3.26.so", "a host BLAS or LAPACK library"},
      {"/usr/lib/x86_64-linux-gnu/libblas.so.3", "a host BLAS or LAPACK library"},
      {"/opt/intel/lib/libmkl_rt.so.2", "a host BLAS or LAPACK library"},
  };
  for (const auto& [path, family] : named) EXPECT_EQ(library_code_named(path), family) << path;
  // The runtime, the driver and its helpers, the compiler's runtime, the submission: not library code.
  const char* innocent[] = {"/usr/local/cuda/lib64/libcudart.so.13",
                            "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                            "/usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.1",
                            "/usr/local/cuda/lib64/libcufile.so.1",
                            "/lib/x86_64-linux-gnu/libstdc++.so.6",
                            "/lib/x86_64-linux-gnu/libgomp.so.1",
                            "/grades/ada/lib/libsubmission.so",
                            "/tmp/libcubic_spline.so",
                            "/usr/cublas/libm.so.6"};  // the name, not the directory, says what it is
  for (const char* path : innocent) EXPECT_EQ(library_code_named(path), "") << path;
}

TEST(LibraryCode, TrustedDirectoriesAreMatchedByWholeComponents) {
  const std::vector<std::string> extra = {"/opt/conda/lib"};
  for (const char* path : {"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2",
                           "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/usr/lib64/libgomp.so.1",
                           "/usr/local/cuda/lib64/libcudart.so.13",
                           "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13",
                           "/usr/local/nvidia/lib64/libcuda.so.1", "/opt/conda/lib/libstdc++.so.6"})
    EXPECT_TRUE(under_trusted_dirs(path, extra)) << path;
  for (const char* path : {"/tmp/libhelper.so", "/grades/ada/lib/libhelper.so", "/library/libhelper.so",
                           "/usr/lib64x/libhelper.so", "/usr/local/cuda-evil/libhelper.so",
                           "/usr/local/lib/libhelper.so", "/usr/lib/../../tmp/libhelper.so", "lib/libhelper.so",
                           "/proc/self/fd/3", "/usr/lib", "/opt/conda/lib2/libhelper.so", "/opt/conda/libhelper.so"})
    EXPECT_FALSE(under_trusted_dirs(path, extra)) << path;
}

TEST(LibraryCode, OnlyLibrariesNewSinceTheSnapshotAreFlagged) {
  const std::string submission = "/grades/ada/lib/libsubmission.so";
  const std::vector<std::string> before = {"/usr/local/cuda/lib/libcublas.so.13", "/lib/x86_64-linux-gnu/libc.so.6",
                                           "/opt/gcc/lib64/libstdc++.so.6"};
  const std::vector<std::string> now = {
      "/usr/local/cuda/lib/libcublas.so.13",             // the grader's own: not new
      "/lib/x86_64-linux-gnu/libc.so.6",                 //
      "/opt/gcc/lib64/libstdc++.so.6",                   //
      submission,                                        // allowed
      "/usr/lib/x86_64-linux-gnu/libnss_files.so.2",     // new, system, innocent: allowed
      "/opt/gcc/lib64/libgcc_s.so.1",                    // new, in a directory the grader loads from
      "/usr/local/cuda/lib64/libnvrtc.so.13",            // new, system, library code
      "/tmp/kc_x/libhelper.so",                          // new, from outside
      "/tmp/kc_x/libhelper.so",                          // listed twice: reported once
  };
  const std::vector<library_finding> found = new_library_code(before, now, submission, {"/opt/gcc/lib64"});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].what, "NVRTC (run-time compilation)");
  EXPECT_EQ(found[0].path, "/usr/local/cuda/lib64/libnvrtc.so.13");
  EXPECT_EQ(found[0].how, "loaded at run time");
  EXPECT_EQ(found[1].what, "a library from outside the system and CUDA directories");
  EXPECT_EQ(found[1].path, "/tmp/kc_x/libhelper.so");
  EXPECT_EQ(property_text(found),
            "NVRTC (run-time compilation): /usr/local/cuda/lib64/libnvrtc.so.13 (loaded at run time); a library from "
            "outside the system and CUDA directories: /tmp/kc_x/libhelper.so (loaded at run time)");
}

TEST(LibraryCode, ThePropertyTextCannotBeSplitByAPath) {
  // Properties travel key=value, tab-separated, and the report splits this one at ';'.
  const library_finding odd{"CUB", "/tmp/a;b\tc\nd/libcub.so", "loaded at run time"};
  EXPECT_EQ(describe(odd), "CUB: /tmp/a?b?c?d/libcub.so (loaded at run time)");
  EXPECT_EQ(property_text({}), "");
}

// ---- the watch in this process ----

std::string cublas_soname() { return "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR); }

template <class F>
F fake_entry(const char* name) {
  return reinterpret_cast<F>(submission_entry(name));
}

void load_fake_submission() {
  ASSERT_EQ(setenv("KCONFORM_SUBMISSION", KC_FAKE_SUBMISSION, 1), 0);
  ASSERT_NE(fake_entry<int (*)(const char*)>("fake_load"), nullptr);
}

TEST(LibraryWatch, NothingIsRecordedBeforeASubmissionLoads) { EXPECT_EQ(library_code_found(), std::nullopt); }

TEST(LibraryWatch, CublasCalledFromTheSubmissionIsFoundAndTheGradersOwnCallsAreNot) {
  load_fake_submission();
  ASSERT_TRUE(library_code_found().has_value());
  // The grader's own call, through the cuBLAS the watch holds: no submission frame on the stack.
  void* cublas = dlopen(cublas_soname().c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(cublas, nullptr) << "the watch should hold " << cublas_soname();
  const auto create = reinterpret_cast<int (*)(void**)>(dlsym(cublas, "cublasCreate_v2"));
  ASSERT_NE(create, nullptr);
  void* handle = nullptr;
  (void)create(&handle);
  EXPECT_EQ(library_code_found()->find("cublas"), std::string::npos) << *library_code_found();

  // The submission's: dlopen of the name (already loaded, so nothing new appears) and dlsym.
  const auto load_and_call = fake_entry<int (*)(const char*, const char*)>("fake_load_and_call");
  ASSERT_NE(load_and_call(cublas_soname().c_str(), "cublasCreate_v2"), -1);
  const std::string found = *library_code_found();
  EXPECT_NE(found.find("cuBLAS: "), std::string::npos) << found;
  // The path is the file the loader mapped: the soname itself or, where ldconfig resolved the link
  // (the H100 box), the versioned file behind it (libcublas.so.13.1.0.3).
  const std::regex called_from_submission("/" + std::regex_replace(cublas_soname(), std::regex(R"(\.)"), R"(\.)") +
                                          R"((\.[0-9]+)* \(called from the submission: cublasCreate_v2)");
  EXPECT_TRUE(std::regex_search(found, called_from_submission)) << found;
  // Since issue 32 the watch runs in the submission's executor (grading/executor/executor_main.cpp),
  // which sends this text with every reply; the judge records it as the case's runtime_libraries
  // (expect_within_memory_limit). That path needs a GPU: matmul/cublas_dlopen.cu's expected grade.
}

TEST(LibraryWatch, ALibraryFromOutsideTheSystemDirectoriesIsFoundAndTheSubmissionIsNot) {
  load_fake_submission();
  std::string dir = (fs::temp_directory_path() / "kc_runtime_libraries_XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const fs::path copy = fs::canonical(dir) / "libhelper.so";
  fs::copy_file(KC_FAKE_PLAIN_LIBRARY, copy);
  ASSERT_EQ(fake_entry<int (*)(const char*)>("fake_load")(copy.c_str()), 0);
  const std::string found = *library_code_found();
  fs::remove_all(dir);
  EXPECT_NE(found.find("a library from outside the system and CUDA directories: " + copy.string() +
                       " (loaded at run time)"),
            std::string::npos)
      << found;
  // The fake submission lives in the build tree, outside every trusted directory, and is allowed.
  EXPECT_EQ(found.find("fake_submission"), std::string::npos) << found;
}

}  // namespace
}  // namespace kc::grading
