// Cases for the runner's out-of-memory retry (runner_isolation_test.sh); never part of a family's run.
// RetryProbe.DeviceFullOnce fails with the CUDA runtime's out-of-memory words the first time it runs
// (it creates the file KCONFORM_RETRY_PROBE_MARKER names) and passes after, as a case does once the
// neighbour that held the device lets go; RetryProbe.RunsAfter passes, and runs after it in the same
// process. Host-only: the words are what the runner reads.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace kc::runner_probe {
namespace {

TEST(RetryProbe, DeviceFullOnce) {
  const char* marker = std::getenv("KCONFORM_RETRY_PROBE_MARKER");
  if (marker == nullptr || *marker == '\0')
    GTEST_SKIP() << "KCONFORM_RETRY_PROBE_MARKER is not set (only the runner's test sets it)";
  if (std::filesystem::exists(marker)) return;
  std::ofstream(marker) << "the first run failed out of device memory\n";
  FAIL() << "could not open device 0: cudaErrorMemoryAllocation (out of memory)";
}

TEST(RetryProbe, RunsAfter) { SUCCEED(); }

}  // namespace
}  // namespace kc::runner_probe
