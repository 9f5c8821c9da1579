// Deliberately faulting cases for the runner's isolation test (runner_isolation_test.sh); never part
// of a family's run. Each fault must cost its own case and no other: the cases around them pass.
//
//   Host faults (every machine): a case that never returns, SIGSEGV, abort(), exit(0).
//   GPU faults (where there is a GPU): a kernel that never finishes (the in-process watchdog ends
//   the process: fixtures/watchdog.hpp), a trap that kills the CUDA context, an illegal address.
//   KCONFORM_PROBE_EXIT_AT_START=1: the program exits 0 before its first case (every case "not run").
#include "fixtures/check_result.hpp"
#include "fixtures/cuda_check.hpp"
#include "fixtures/gtest_gpu.hpp"
#include "fixtures/suite_case.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

namespace kc::runner_probe {
namespace {

// A global constructor runs before main(): the earliest a program can quit. Only in the runner's
// run (KCONFORM_PROGRESS set), not when it lists the cases.
const bool exit_at_start = [] {
  const char* flag = std::getenv("KCONFORM_PROBE_EXIT_AT_START");
  if (flag != nullptr && *flag == '1' && std::getenv("KCONFORM_PROGRESS") != nullptr) std::exit(0);
  return false;
}();

// Spins until %globaltimer has moved on `seconds` (bounded, so the GPU is released even if the
// process's end did not stop it), or forever in effect for any watchdog shorter than that.
__global__ void spin_kernel(double seconds, int* out) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (static_cast<double>(now - start) < seconds * 1e9);
  *out = 1;
}

__global__ void trap_kernel() { __trap(); }

__global__ void write_kernel(int* out, int value) { *out = value; }

// A short kernel that must run and write: proves the process has a working context.
check_result small_launch() {
  int* value = nullptr;
  KC_CUDA_TRY(cudaMalloc(&value, sizeof(int)));
  write_kernel<<<1, 1>>>(value, 42);
  int got = 0;
  const auto fault = fault_after_sync(nullptr);
  if (!fault) KC_CUDA_TRY(cudaMemcpy(&got, value, sizeof(int), cudaMemcpyDeviceToHost));
  KC_CUDA_TRY_NOEXCEPT(cudaFree(value));
  if (fault) return check_result::fail(*fault);
  return got == 42 ? check_result::pass() : check_result::fail("the kernel did not write 42");
}

TEST(Probe, PassesBefore) { SUCCEED(); }

TEST(Probe, HostNeverReturns) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  FAIL() << "the runner should have killed this case long before";
}

TEST(Probe, Segfaults) { std::raise(SIGSEGV); }

TEST(Probe, Aborts) { std::abort(); }

TEST(Probe, ExitsZero) { std::exit(0); }

TEST(Probe, PassesAfter) { SUCCEED(); }

TEST(ProbeGpu, KernelNeverFinishes) {
  KC_REQUIRE_GPU();
  int* out = nullptr;
  KC_CUDA_TRY(cudaMalloc(&out, sizeof(int)));
  spin_kernel<<<1, 1>>>(60.0, out);
  const auto fault = fault_after_sync(nullptr);  // the watchdog ends the process before this returns
  FAIL() << "the kernel finished: " << (fault ? *fault : "no fault");
}

TEST(ProbeGpu, RunsAfterHang) {
  KC_REQUIRE_GPU();
  expect_case_passed(small_launch());
}

TEST(ProbeGpu, KernelTraps) {
  KC_REQUIRE_GPU();
  trap_kernel<<<1, 1>>>();
  const auto fault = fault_after_sync(nullptr);
  expect_case_passed(fault ? check_result::fail(*fault) : check_result::pass());
}

TEST(ProbeGpu, RunsAfterTrap) {
  KC_REQUIRE_GPU();
  expect_case_passed(small_launch());
}

}  // namespace
}  // namespace kc::runner_probe
