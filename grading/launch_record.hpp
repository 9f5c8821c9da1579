// The kernels a submission launched, as grading/submission_guard.cpp sees them from inside the
// submission's library (its launch wrappers note every launch; the grading program takes the list
// through kc_grader_launched_kernels). The occupancy family judges kc_occupancy_answer for the kernel
// kc_vector_add_kernel() names, which must be the kernel kc_vector_add actually launches: a trivial
// kernel named there would be answered for instead (issue 20).
//
// A kernel is known by its host function address (what `kernel<<<...>>>` and cudaLaunchKernel pass,
// and what a submission returns cast to const void*). CUDA 13's triple-chevron launch passes a
// cudaKernel_t handle instead (crt/host_runtime.h: __cudaGetKernel(&handle, fun) once per launch site,
// then __cudaLaunchKernel(handle, ...)), so the handles cudaGetKernel gives out are named after the
// function they were got for, and a launch by handle is noted as that function.
//
// Compiled into every submission (by scripts/grade.sh, with no include path but this directory's):
// C++17 and the standard library only, and outside namespace kc (a kc:: symbol in a submission's
// library is flagged as a call into the grader).
#pragma once

#include <cstddef>
#include <mutex>
#include <unordered_map>

namespace kconform_guard {

class launch_record {
 public:
  // At most this many distinct kernels are listed between two take()s; more sets `more`.
  static constexpr std::size_t max_listed = 16;

  struct taken {
    std::size_t listed = 0;           // distinct kernels written out (also past the caller's capacity: count)
    unsigned long long launches = 0;  // launch calls, successful or not
    bool more = false;                // more than max_listed distinct kernels were launched
  };

  // cudaGetKernel / __cudaGetKernel gave `handle` for the function at `function`.
  void name_handle(const void* handle, const void* function) {
    if (handle == nullptr || handle == function) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    functions_[handle] = function;
  }

  // A launch of `kernel`: a function address, or a handle from name_handle (noted as its function).
  void launched(const void* kernel) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto found = functions_.find(kernel); found != functions_.end()) kernel = found->second;
    ++launches_;
    for (std::size_t i = 0; i < listed_; ++i)
      if (kernels_[i] == kernel) return;
    if (listed_ < max_listed)
      kernels_[listed_++] = kernel;
    else
      more_ = true;
  }

  // The kernels launched since the last take(), in first-launch order (up to `capacity` written to
  // `out`), and the launch count; then starts over. Handle names are kept.
  taken take(const void** out, std::size_t capacity) {
    const std::lock_guard<std::mutex> lock(mutex_);
    taken t;
    t.listed = listed_;
    t.launches = launches_;
    t.more = more_;
    for (std::size_t i = 0; i < listed_ && i < capacity && out != nullptr; ++i) out[i] = kernels_[i];
    listed_ = 0;
    launches_ = 0;
    more_ = false;
    return t;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<const void*, const void*> functions_;
  const void* kernels_[max_listed] = {};
  std::size_t listed_ = 0;
  unsigned long long launches_ = 0;
  bool more_ = false;
};

}  // namespace kconform_guard
