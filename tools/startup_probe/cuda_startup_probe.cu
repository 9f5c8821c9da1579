// One process's CUDA start-up, phase by phase: the runtime's first call, cudaGetDeviceCount, which runs
// cuInit (it sets up every GPU the process sees; printed as "cuinit"), then the
// primary context of one device (cudaSetDevice + cudaFree(nullptr)), then a first launch. Prints one
// line, "cuinit <s> context <s> launch <s> total <s> visible <n>", for scripts/cuda_startup_probe.sh,
// which runs many at once: the driver starts processes one at a time, so a run that starts many
// short GPU processes pays this serially (docs/architecture.md, "Start-up").
//
//   kconform_cuda_startup_probe [device ordinal]     exit 0, or 77 (no GPU: CTest's skip), 1 (error)
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

__global__ void touch(int* out) { *out = 1; }

double seconds_since(std::chrono::steady_clock::time_point from) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
}

}  // namespace

int main(int argc, char** argv) {
  const auto started = std::chrono::steady_clock::now();
  int visible = 0;
  const cudaError_t init = cudaGetDeviceCount(&visible);
  const double cuinit = seconds_since(started);
  if (init != cudaSuccess || visible == 0) {
    std::fprintf(stderr, "no CUDA GPU (cudaGetDeviceCount: %s)\n", cudaGetErrorName(init));
    return 77;
  }
  const int device = argc > 1 ? std::atoi(argv[1]) : 0;
  const auto context_started = std::chrono::steady_clock::now();
  if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    std::fprintf(stderr, "could not open device %d of %d\n", device, visible);
    return 1;
  }
  const double context = seconds_since(context_started);
  const auto launch_started = std::chrono::steady_clock::now();
  int* out = nullptr;
  if (cudaMalloc(&out, sizeof(int)) != cudaSuccess) return 1;
  touch<<<1, 1>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  const double launch = seconds_since(launch_started);
  std::printf("cuinit %.3f context %.3f launch %.3f total %.3f visible %d\n", cuinit, context, launch,
              seconds_since(started), visible);
  return cudaFree(out) == cudaSuccess ? 0 : 1;
}
