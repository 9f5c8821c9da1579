// How much device memory a test process group holds, as the driver sees it (NVML, loaded at run
// time: a machine without the NVIDIA driver, like CI, simply has no watch).
//
// Why: grading processes share a GPU, and a submission can take device memory along routes no
// in-process guard sees (the driver API reached through cudaGetDriverEntryPoint, the device-side
// malloc heap, CUDA arrays, memory pools, graph allocation nodes, library workspaces). The runner
// therefore bounds each test process from outside: it polls what the driver has allocated to the
// processes of the child's process group (the sanitizer's target included) and kills the group when
// the sum passes KCONFORM_PROCESS_MEMORY_LIMIT_MIB, so the memory a neighbour can take is bounded
// whatever route it uses (issue 19).
#pragma once

#include <sys/types.h>

#include <memory>

namespace kc::runner {

class device_memory_watch {
 public:
  // nullptr where NVML cannot be loaded or initialised (no driver).
  static std::unique_ptr<device_memory_watch> open();
  ~device_memory_watch();

  // Bytes of device memory held, on every GPU, by the processes whose process group is `group`. NVML
  // names processes by PID as the driver sees them: in a PID namespace whose PIDs the driver does not
  // see (some containers) nothing matches and the watch sees 0 (measured on the GPU box: PIDs match).
  unsigned long long bytes_held_by_group(pid_t group);

 private:
  struct api;
  explicit device_memory_watch(std::unique_ptr<api> nvml);
  std::unique_ptr<api> nvml_;
};

// KCONFORM_PROCESS_MEMORY_LIMIT_MIB, in bytes; 0 (no limit) when unset.
unsigned long long process_memory_limit_bytes();

}  // namespace kc::runner
