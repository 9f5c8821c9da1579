// Cases for the runner's out-of-memory retry (runner_isolation_test.sh); never part of a family's run.
// RetryProbe.DeviceFullOnce fails with the CUDA runtime's out-of-memory words the first time it runs
// (it creates the file KCONFORM_RETRY_PROBE_MARKER names) and passes after, as a case does once the
// neighbour that held the device lets go; RetryProbe.RunsAfter passes, and runs after it in the same
// process; RetryProbe.ToolFindsAHazard, before them, and ToolFindsAHazardLater, after them, report a
// tool's hazard where asked; AbortsWhereAsked ends its process where asked; RetryProbe.RunsLast passes,
// last. Host-only:
// the words are what the runner reads.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace kc::runner_probe {
namespace {

// Where <variable>=1 under a tool's run, a tool's hazard report in the case that calls this: written
// into the tool's channel (KCONFORM_TOOL_LOG, the FIFO the runner reads the tool from) after the case's
// start marker, as a tool reports a hazard in a case. Skips the case otherwise.
void report_a_hazard_where_asked(const char* variable, const char* where) {
  const char* wanted = std::getenv(variable);
  const char* channel = std::getenv("KCONFORM_TOOL_LOG");
  if (wanted == nullptr || std::string(wanted) != "1" || channel == nullptr || *channel == '\0')
    GTEST_SKIP() << variable << "=1 under a tool's run only (the runner's test sets it)";
  std::ofstream(channel, std::ios::app) << "========= Error: Race reported between Write access and Read access "
                                           "(the retry probe, "
                                        << where << ")\n";
}

// Before DeviceFullOnce's retry.
TEST(RetryProbe, ToolFindsAHazard) { report_a_hazard_where_asked("KCONFORM_RETRY_PROBE_HAZARD", "in a case"); }

TEST(RetryProbe, DeviceFullOnce) {
  const char* marker = std::getenv("KCONFORM_RETRY_PROBE_MARKER");
  if (marker == nullptr || *marker == '\0')
    GTEST_SKIP() << "KCONFORM_RETRY_PROBE_MARKER is not set (only the runner's test sets it)";
  if (std::filesystem::exists(marker)) return;
  std::ofstream(marker) << "the first run failed out of device memory\n";
  FAIL() << "could not open device 0: cudaErrorMemoryAllocation (out of memory)";
}

TEST(RetryProbe, RunsAfter) { SUCCEED(); }

// After DeviceFullOnce: a case its process ran after a case that failed out of device memory, whose
// finding must not end a tool's run whose cases run again alone (KCONFORM_TOOL_UNTIL_FINDING).
TEST(RetryProbe, ToolFindsAHazardLater) {
  report_a_hazard_where_asked("KCONFORM_RETRY_PROBE_HAZARD_LATER", "in a later case");
}

// Where KCONFORM_RETRY_PROBE_ABORT=1, the process dies here, so the cases after it run in a fresh
// process, which a tool's run ended at its first finding would not start. Skipped otherwise.
TEST(RetryProbe, AbortsWhereAsked) {
  const char* wanted = std::getenv("KCONFORM_RETRY_PROBE_ABORT");
  if (wanted == nullptr || std::string(wanted) != "1") GTEST_SKIP() << "KCONFORM_RETRY_PROBE_ABORT=1 only (the runner's test sets it)";
  std::abort();
}

TEST(RetryProbe, RunsLast) { SUCCEED(); }

}  // namespace
}  // namespace kc::runner_probe
