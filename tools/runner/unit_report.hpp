// What the runner writes for one unit: a JUnit file (one <testcase> per case, with gtest's
// properties), and one line of statistics the GPU run's summary adds up (cases, processes, time).
#pragma once

#include "tools/runner/case_records.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kc::runner {

struct unit_outcome {
  std::string name;  // the CTest test: "matmul.conformance.SharedTiled"
  std::vector<case_result> cases;
  int processes = 0;
  double seconds = 0;
  double started_epoch = 0;  // when the unit started (seconds since the epoch): the run's timeline
  std::string gpu;           // the GPU CTest handed it (resource_gpu_index()), "" none
  // Its processes' seconds before their first record and after their last (process_end), summed.
  double launch_seconds = 0, exit_seconds = 0;
  std::size_t count(case_status status) const;
};

std::string junit_xml(const unit_outcome& unit);
// The same as one JSON object, for tools that read verdicts (tools/grade_report):
// {"unit", "processes", "seconds", "started", "launch_seconds", "exit_seconds", "cases": [{"name",
// "status", "seconds", "attempt", "message", "properties": {key: value}}]}.
std::string unit_json(const unit_outcome& unit);
// "<name>\t<cases>\t<passed>\t<failed>\t<skipped>\t<processes>\t<seconds>\t<input seconds>\t<started>\t<outside>
// \t<gpu wait>\t<download>\t<compare>\t<allocate>\t<guards>": the seconds its cases spent making inputs and CPU references
// (their input_seconds properties), when it started (seconds since the epoch), so the run's summary
// can tell how many units ran at once, its seconds outside any case (listing, process start-up and
// exit), and its cases' seconds waiting for the GPU, downloading results, comparing them, allocating
// and freeing device memory and writing and checking guard zones (fixtures/time_spent.hpp), then
// \t<gpu>: the GPU it ran on ("-" where CTest handed it none), so the run's summary gives units per GPU,
// then \t<device open>: its cases' seconds opening the GPU (the CUDA start-up in a process's first case)
std::string stats_line(const unit_outcome& unit);

// A unit's report as unit_json wrote it; nullopt where the text is not one (no "unit" or "cases").
std::optional<unit_outcome> unit_from_json(std::string_view text);

// `earlier` without its cases named in `dropped`, and with the cases `rerun` ran in place of its own of
// the same names (a case `earlier` lacks is added at the end), each with `note` added to its message;
// its processes, seconds and launch and exit seconds are both runs' (grade.sh's run again alone:
// KCONFORM_RERUN_ALONE, which runs only the cases that failed out of device memory on every run beside
// the batch, and those their process ran after them).
unit_outcome with_cases_replaced(const unit_outcome& earlier, const unit_outcome& rerun, const std::string& note,
                                 const std::vector<std::string>& dropped = {});

// The GPU CTest handed this process (CTEST_RESOURCE_GROUP_0_GPUS "id:<k>,..."), as the host numbers
// it: the k-th entry of CUDA_VISIBLE_DEVICES where that is set, else k (scripts/run_gpu_suite.sh sets
// CUDA_DEVICE_ORDER=PCI_BUS_ID, so CUDA's ordinals are nvidia-smi's indices). "" when none.
std::string resource_gpu_index();
std::string xml_escape(const std::string& text);

}  // namespace kc::runner
