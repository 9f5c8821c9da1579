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
#include <stdexcept>

namespace kc::grading {

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
  progress::note_gpu_hold_taken(held_->waited_seconds());
  ::testing::Test::RecordProperty("gpu_hold_wait_seconds", std::to_string(held_->waited_seconds()));
}

performance_hold::~performance_hold() {
  if (!held_) return;
  remote::end_submission_executor();  // no student's code alive once the next unit holds the GPU
  held_.reset();
}

}  // namespace kc::grading
