// grading/performance_hold.hpp without a GPU: the hold is one process at a time (a second finds it
// taken, waits until the first lets go, and says it waited), an unopenable one is a clear error, and
// the performance case's hold does nothing at all where grade.sh asked for no overlap (no
// KCONFORM_PERFORMANCE_HOLD_DIR: no CUDA call, no file, no executor ended).
#include "grading/performance_hold.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
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
  std::optional<file_hold> first(std::in_place, path);
  EXPECT_LT(first->waited_seconds(), 0.5) << "nobody held it";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child's own open of the file: flock holds are per open file, so it must find it taken (no
    // sleep decides that), then wait for the parent to let go. Whatever happens, it reports and ends.
    // It tells the parent when it has looked, so the parent lets go only after that (no race on a
    // loaded machine), and then at least 0.3 s later, which the child must have waited.
    char verdict = 'x';
    try {
      const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
      const bool taken = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
      if (fd >= 0) ::close(fd);
      const char looked = taken ? 't' : 'f';
      (void)!::write(to_parent[1], &looked, 1);
      const file_hold second(path);
      verdict = !taken ? 'f' : second.waited_seconds() >= 0.25 ? 'y' : 'n';
    } catch (...) {
    }
    (void)!::write(to_parent[1], &verdict, 1);
    ::_exit(0);
  }
  ::close(to_parent[1]);
  char looked = '?';
  EXPECT_EQ(::read(to_parent[0], &looked, 1), 1);
  EXPECT_EQ(looked, 't') << "the second holder did not find the hold taken while the first held it";
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  first.reset();  // lets go: the child takes it now
  char verdict = '?';
  EXPECT_EQ(::read(to_parent[0], &verdict, 1), 1);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(to_parent[0]);
  EXPECT_NE(verdict, 'f') << "the second holder did not find the hold taken while the first held it";
  EXPECT_NE(verdict, 'x') << "the second holder could not take the hold once it was free";
  EXPECT_EQ(verdict, 'y') << "the second holder did not wait (>= 0.25 s) for the first to let go (0.3 s after it looked)";
  const file_hold again(path);
  EXPECT_LT(again.waited_seconds(), 0.5) << "both let go: free again";
  std::filesystem::remove_all(dir);
}

// A holder killed before it ended its executors leaves their ids in the hold file; the next holder
// waits until they are gone (a zombie counts as gone: its GPU context is torn down), and no longer.
TEST(PerformanceHold, TheNextHolderWaitsForTheLastHoldersExecutorsToBeGone) {
  const pid_t dying = ::fork();
  ASSERT_GE(dying, 0);
  if (dying == 0) {
    ::usleep(400000);  // an executor still dying for 0.4 s
    ::_exit(0);
  }
  const double waited = wait_for_processes_gone(std::to_string(dying) + "\n", 5.0);
  EXPECT_GE(waited, 0.3) << "returned while the process ran";
  EXPECT_LT(waited, 3.0) << "waited on past its end (a zombie until reaped below)";
  int status = 0;
  ::waitpid(dying, &status, 0);
  EXPECT_LT(wait_for_processes_gone(std::to_string(dying) + "\n", 5.0), 0.5) << "a reaped process is gone";
  EXPECT_LT(wait_for_processes_gone("", 5.0), 0.5) << "no ids: nothing to wait for";
  const double bounded = wait_for_processes_gone(std::to_string(::getpid()) + "\n", 0.3);
  EXPECT_GE(bounded, 0.3);
  EXPECT_LT(bounded, 2.0) << "one that never ends is waited for up to the bound only";
}

TEST(PerformanceHold, TheHoldFileKeepsTheHoldersNotes) {
  const std::filesystem::path dir = fresh_folder("kc_hold_notes");
  file_hold held((dir / "gpu.hold").string());
  EXPECT_EQ(held.contents(), "");
  held.append("123\n");
  held.append("456\n");
  EXPECT_EQ(held.contents(), "123\n456\n");
  held.clear();
  EXPECT_EQ(held.contents(), "");
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
