// The recorded run (tests/run_report/recorded_run, KC_RECORDED_RUN) copied to a fresh temporary
// folder per test, so the page is written beside its files as run_gpu_suite.sh writes it, and the
// committed folder stays as it is.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace kc::run_report::testing {

class recorded_run_copy {
 public:
  // `with_recording` false: an empty folder (a run that recorded nothing).
  explicit recorded_run_copy(bool with_recording = true) {
    path_ = std::filesystem::temp_directory_path() /
            ("kconform_run_report_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
    if (with_recording) std::filesystem::copy(KC_RECORDED_RUN, path_, std::filesystem::copy_options::recursive);
  }
  ~recorded_run_copy() { std::filesystem::remove_all(path_); }
  recorded_run_copy(const recorded_run_copy&) = delete;
  recorded_run_copy& operator=(const recorded_run_copy&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kc::run_report::testing
