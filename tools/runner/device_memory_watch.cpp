#include "tools/runner/device_memory_watch.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kc::runner {
namespace {

// The few NVML declarations used, from its documented C ABI (nvml.h is not installed everywhere):
// nvmlDeviceGetComputeRunningProcesses_v3 fills records of nvmlProcessInfo_v2_t's layout.
using nvml_return = int;
constexpr nvml_return nvml_success = 0;
using nvml_device = void*;
struct nvml_process_info {
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};

// The parent and the process group of `pid` (fields 4 and 5 of /proc/<pid>/stat); false if it is gone.
bool parent_and_group_of(unsigned int pid, long* parent, long* group) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return false;
  const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return false;
  std::istringstream fields(text.substr(close + 1));
  std::string state;
  fields >> state >> *parent >> *group;
  return static_cast<bool>(fields);
}

// Whether `pid` is the group's: in the process group, or a descendant of its leader. A grading
// process's executor (grading/executor/) is its child, and the submission running there could leave
// the group (setsid) before it takes memory; its parents still lead back to the leader.
bool belongs_to_group(unsigned int pid, pid_t group) {
  long parent = 0, pgid = -1;
  for (int depth = 0; depth < 64 && pid > 1; ++depth) {
    if (!parent_and_group_of(pid, &parent, &pgid)) return false;
    if (pgid == group || static_cast<pid_t>(pid) == group) return true;
    pid = static_cast<unsigned int>(parent);
  }
  return false;
}

}  // namespace

struct device_memory_watch::api {
  void* library = nullptr;
  nvml_return (*shutdown)() = nullptr;
  nvml_return (*handle_by_index)(unsigned int, nvml_device*) = nullptr;
  nvml_return (*compute_processes)(nvml_device, unsigned int*, nvml_process_info*) = nullptr;
  std::vector<nvml_device> devices;
  ~api() {
    if (shutdown != nullptr) shutdown();
    if (library != nullptr) dlclose(library);
  }
};

std::unique_ptr<device_memory_watch> device_memory_watch::open() {
  auto nvml = std::make_unique<api>();
  nvml->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (nvml->library == nullptr) return nullptr;
  const auto init = reinterpret_cast<nvml_return (*)()>(dlsym(nvml->library, "nvmlInit_v2"));
  const auto count = reinterpret_cast<nvml_return (*)(unsigned int*)>(dlsym(nvml->library, "nvmlDeviceGetCount_v2"));
  nvml->handle_by_index =
      reinterpret_cast<nvml_return (*)(unsigned int, nvml_device*)>(dlsym(nvml->library, "nvmlDeviceGetHandleByIndex_v2"));
  nvml->compute_processes = reinterpret_cast<nvml_return (*)(nvml_device, unsigned int*, nvml_process_info*)>(
      dlsym(nvml->library, "nvmlDeviceGetComputeRunningProcesses_v3"));
  if (init == nullptr || count == nullptr || nvml->handle_by_index == nullptr || nvml->compute_processes == nullptr ||
      init() != nvml_success)
    return nullptr;
  nvml->shutdown = reinterpret_cast<nvml_return (*)()>(dlsym(nvml->library, "nvmlShutdown"));
  unsigned int devices = 0;
  if (count(&devices) != nvml_success) return nullptr;
  for (unsigned int d = 0; d < devices; ++d) {
    nvml_device handle = nullptr;
    if (nvml->handle_by_index(d, &handle) == nvml_success) nvml->devices.push_back(handle);
  }
  return std::unique_ptr<device_memory_watch>(new device_memory_watch(std::move(nvml)));
}

device_memory_watch::device_memory_watch(std::unique_ptr<api> nvml) : nvml_(std::move(nvml)) {}
device_memory_watch::~device_memory_watch() = default;

unsigned long long device_memory_watch::bytes_held_by_group(pid_t group) {
  unsigned long long total = 0;
  std::vector<nvml_process_info> infos(256);
  for (nvml_device device : nvml_->devices) {
    unsigned int count = static_cast<unsigned int>(infos.size());
    if (nvml_->compute_processes(device, &count, infos.data()) != nvml_success) continue;
    for (unsigned int i = 0; i < count && i < infos.size(); ++i)
      // NVML_VALUE_NOT_AVAILABLE (all bits set) where the driver cannot tell: not a size.
      if (infos[i].used_gpu_memory != ~0ULL && belongs_to_group(infos[i].pid, group)) total += infos[i].used_gpu_memory;
  }
  return total;
}

unsigned long long process_memory_limit_bytes() {
  const char* text = std::getenv("KCONFORM_PROCESS_MEMORY_LIMIT_MIB");
  const long long mib = text != nullptr ? std::atoll(text) : 0;
  return mib > 0 ? static_cast<unsigned long long>(mib) << 20 : 0;
}

}  // namespace kc::runner
