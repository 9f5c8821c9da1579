#include "grading/performance_hold.hpp"

#include "fixtures/case_progress.hpp"
#include "fixtures/cuda_check.hpp"
#include "fixtures/gpu_environment.hpp"
#include "grading/executor/remote_submission.hpp"

#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <stdexcept>

namespace kc::grading {

namespace {
file_hold* current = nullptr;  // the hold this process holds, for the executor-start hook
}  // namespace

file_hold::file_hold(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) throw std::runtime_error("cannot open the GPU hold " + path + ": " + std::strerror(errno));
  const auto started = std::chrono::steady_clock::now();
  int status;
  while ((status = ::flock(fd_, LOCK_EX)) != 0 && errno == EINTR) {
  }
  if (status != 0) {
    const int error = errno;
    ::close(fd_);
    throw std::runtime_error("cannot take the GPU hold " + path + ": " + std::strerror(error));
  }
  waited_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

file_hold::~file_hold() {
  if (fd_ < 0) return;
  (void)::flock(fd_, LOCK_UN);
  ::close(fd_);
}

std::string file_hold::contents() const {
  std::string text;
  char buffer[4096];
  ssize_t got;
  for (off_t at = 0; (got = ::pread(fd_, buffer, sizeof buffer, at)) > 0; at += got) text.append(buffer, static_cast<std::size_t>(got));
  return text;
}

void file_hold::clear() { (void)!::ftruncate(fd_, 0); }

void file_hold::append(const std::string& text) {
  const off_t end = ::lseek(fd_, 0, SEEK_END);
  if (end >= 0) (void)!::pwrite(fd_, text.data(), text.size(), end);
}

double wait_for_processes_gone(const std::string& pids, double seconds) {
  const auto started = std::chrono::steady_clock::now();
  // By /proc, not kill(pid, 0): the executor runs as another uid, where kill says EPERM of a live one.
  const auto running = [](long pid) {
    if (pid <= 1) return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;  // gone
    const auto close = line.rfind(')');  // "<pid> (<name>) <state> ...": the name may hold spaces
    return close == std::string::npos || close + 2 >= line.size() || (line[close + 2] != 'Z' && line[close + 2] != 'X');
  };
  std::istringstream in(pids);
  for (long pid; in >> pid;)
    while (running(pid) && std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < seconds)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

std::string gpu_hold_path(const std::string& dir) {
  char bus[64] = {};
  KC_CUDA_TRY(cudaDeviceGetPCIBusId(bus, sizeof bus, gpu::current().device));
  std::string name(bus);
  for (char& c : name)
    if (c == ':' || c == '.') c = '-';
  return dir + "/gpu-" + name + ".hold";
}

performance_hold::performance_hold() {
  const char* dir = std::getenv("KCONFORM_PERFORMANCE_HOLD_DIR");
  if (dir == nullptr || *dir == '\0') return;
  progress::note_gpu_hold_waiting();
  try {
    held_.emplace(gpu_hold_path(dir));
  } catch (const std::exception& e) {
    progress::note_gpu_hold_taken(0);  // not waiting any more: the case's own timeout again
    // The grader's failure, never the student's (tools/grade_report: grader_error, grade.sh exits 2).
    ::testing::Test::RecordProperty("grader_problem", std::string("the performance case's GPU hold: ") + e.what());
    throw;
  }
  // A holder killed before it could end its executors left their ids: they die with it (their
  // parent-death signal, their PID namespace), moments later. Then this holder's own are noted.
  const double after_previous = wait_for_processes_gone(held_->contents(), 15.0);
  held_->clear();
  current = &*held_;
  remote::on_submission_executor_start([](int pid) {
    if (current != nullptr) current->append(std::to_string(pid) + '\n');
  });
  const double waited = held_->waited_seconds() + after_previous;
  progress::note_gpu_hold_taken(waited);
  ::testing::Test::RecordProperty("gpu_hold_wait_seconds", std::to_string(waited));
}

performance_hold::~performance_hold() {
  if (!held_) return;
  remote::end_submission_executor();  // no student's code alive once the next unit holds the GPU
  remote::on_submission_executor_start(nullptr);
  current = nullptr;
  held_->clear();  // ended and reaped: nothing for the next holder to wait for
  held_.reset();
}

}  // namespace kc::grading
