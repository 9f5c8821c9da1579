// The program the access family's profile tests run under Nsight Compute (label profile): one
// launch of one correct variant on the seed's data (A[i] = i + 1, B[i] = i + 2), then exit.
//
//   access_profile_target <Variant> <n> <block | S1 | S2> <repeats>
//
// Exits 0 after a successful launch, 1 on a refusal or a fault, 77 (skip) without a GPU.
#include "fixtures/cuda_check.hpp"
#include "fixtures/device_buffer.hpp"
#include "fixtures/generators.hpp"
#include "fixtures/gpu_environment.hpp"
#include "kernels/access/access.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using namespace kc;
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s <Variant> <n> <block|S1|S2> <repeats>\n", argv[0]);
    return 2;
  }
  const gpu::environment& env = gpu::current();
  if (!env.available) {
    std::printf("SKIPPED: %s\n", env.reason.c_str());
    return 77;
  }
  try {
    const std::size_t n = std::strtoull(argv[2], nullptr, 10);
    const std::string block = argv[3];
    access::access_config config;
    config.repeats = std::atoi(argv[4]);
    if (block == "S1" || block == "S2") {
      config.from = block == "S1" ? access::scenario::s1 : access::scenario::s2;
      config.block = access::scenario_block(config.from, n, 0);
    } else {
      config.block = std::atoi(block.c_str());
    }
    device_buffer<float> a(n), b(n), c(n);
    std::vector<float> host(n);
    fill_sequence(host, 1.0f);
    a.upload(host);
    fill_sequence(host, 2.0f);
    b.upload(host);
    const launch_status status = access::launch_by_name(argv[1], a.data(), b.data(), c.data(), n, config);
    if (!status) {
      std::fprintf(stderr, "%s refused: %s\n", argv[1], status.message().c_str());
      return 1;
    }
    if (const auto fault = fault_after_sync(nullptr)) {
      std::fprintf(stderr, "%s\n", fault->c_str());
      return 1;
    }
    std::printf("%s: n = %zu, %s\n", argv[1], n, config.describe().c_str());
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "access_profile_target: %s\n", error.what());
    return 1;
  }
}
