// grading/performance_hold.hpp without a GPU: the hold is one process at a time (a second waits until
// the first lets go, and says how long it waited), and the performance case's hold does nothing at
// all where grade.sh asked for no overlap (no KCONFORM_PERFORMANCE_HOLD_DIR: no CUDA call, no file).
#include "grading/performance_hold.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace kc::grading {
namespace {

std::filesystem::path fresh_folder(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(PerformanceHold, ASecondHolderWaitsForTheFirstToLetGo) {
  const std::filesystem::path dir = fresh_folder("kc_hold");
  const std::string path = (dir / "gpu-0000-01-00-0.hold").string();
  int to_parent[2];
  ASSERT_EQ(::pipe(to_parent), 0);
  auto* first = new file_hold(path);
  EXPECT_LT(first->waited_seconds(), 0.5) << "nobody held it";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child's own open of the file: flock holds are per open file, so it must wait for the parent.
    const file_hold second(path);
    const char waited = second.waited_seconds() >= 0.4 ? 'y' : 'n';
    (void)!::write(to_parent[1], &waited, 1);
    ::_exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  delete first;  // lets go: the child takes it now
  char waited = '?';
  EXPECT_EQ(::read(to_parent[0], &waited, 1), 1);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_EQ(waited, 'y') << "the second holder did not wait for the first (0.6 s)";
  ::close(to_parent[0]);
  ::close(to_parent[1]);
  const file_hold again(path);
  EXPECT_LT(again.waited_seconds(), 0.5) << "both let go: free again";
  std::filesystem::remove_all(dir);
}

TEST(PerformanceHold, AnUnopenableHoldIsAClearError) {
  try {
    const file_hold held("/nonexistent-folder/gpu.hold");
    FAIL() << "opened a hold in a folder that does not exist";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/gpu.hold"), std::string::npos) << e.what();
  }
}

TEST(PerformanceHold, WithoutTheHoldFolderThePerformanceCaseHoldsNothing) {
  ::unsetenv("KCONFORM_PERFORMANCE_HOLD_DIR");
  const performance_hold hold;  // no GPU here: any CUDA call or executor start would throw or fail
  ::setenv("KCONFORM_PERFORMANCE_HOLD_DIR", "", 1);
  const performance_hold empty;
  ::unsetenv("KCONFORM_PERFORMANCE_HOLD_DIR");
}

}  // namespace
}  // namespace kc::grading
