// The program the access family's profile tests and the access benchmark's counter columns run
// under Nsight Compute: one launch per launch spec, in order, of a correct variant on the seed's
// data (A[i] = i + 1, B[i] = i + 2), then exit.
//
//   access_profile_target <Variant> <n> <block | S1 | S2> <repeats> [<Variant> <n> <block> <repeats> ...]
//
// Launch k of the program is spec k (ncu numbers the launches it profiles from 0 in the same order).
// Exits 0 after every launch succeeded, 1 on a refusal or a fault, 77 (skip) without a GPU.
#include "fixtures/cuda_check.hpp"
#include "fixtures/gpu_environment.hpp"
#include "kernels/access/access.hpp"
#include "tests/access/access_checks.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// One spec: launches it and waits; false (with the reason on stderr) on a refusal or a fault.
bool launch_one(const char* variant, const char* size, const std::string& block, const char* repeats) {
  using namespace kc;
  const std::size_t n = std::strtoull(size, nullptr, 10);
  access::access_config config;
  config.repeats = std::atoi(repeats);
  if (block == "S1" || block == "S2") {
    config.from = block == "S1" ? access::scenario::s1 : access::scenario::s2;
    config.block = access::scenario_block(config.from, n, 0);
  } else {
    config.block = std::atoi(block.c_str());
  }
  access::testing::seed_data_buffers data(n);
  const launch_status status = access::launch_by_name(variant, data.a.data(), data.b.data(), data.c.data(), n, config);
  if (!status) {
    std::fprintf(stderr, "%s refused: %s\n", variant, status.message().c_str());
    return false;
  }
  if (const auto fault = fault_after_sync(nullptr)) {
    std::fprintf(stderr, "%s\n", fault->c_str());
    return false;
  }
  std::printf("%s: n = %zu, %s\n", variant, n, config.describe().c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kc;
  if (argc < 5 || (argc - 1) % 4 != 0) {
    std::fprintf(stderr, "usage: %s <Variant> <n> <block|S1|S2> <repeats> [<Variant> <n> <block|S1|S2> <repeats> ...]\n", argv[0]);
    return 2;
  }
  const gpu::environment& env = gpu::current();
  if (!env.available) {
    std::printf("SKIPPED: %s\n", env.reason.c_str());
    return 77;
  }
  try {
    for (int arg = 1; arg + 3 < argc; arg += 4)
      if (!launch_one(argv[arg], argv[arg + 1], argv[arg + 2], argv[arg + 3])) return 1;
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "access_profile_target: %s\n", error.what());
    return 1;
  }
}
