#include "tools/runner/memory_failures.hpp"

#include "fixtures/device_buffer.hpp"

#include <string>

namespace kc::runner {
namespace {

bool says(const case_result& r, const char* words) { return r.message.find(words) != std::string::npos; }

}  // namespace

bool is_memory_kill(const case_result& r) {
  return r.status == case_status::failed && says(r, "device memory limit") && says(r, "the runner killed it");
}

bool is_out_of_memory_from_outside(const case_result& r) {
  const bool device_full = says(r, "out of memory") || says(r, "cudaErrorMemoryAllocation") ||
                           says(r, "CUBLAS_STATUS_ALLOC_FAILED") || says(r, device_full_words);
  return r.status == case_status::failed && device_full && !says(r, "device memory limit");
}

}  // namespace kc::runner
