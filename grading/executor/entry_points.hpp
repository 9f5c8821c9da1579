// Every entry point a contract (grading/contract/) declares, with its C signature: the one list the
// judge's proxies (remote_entry.hpp) and the executor's invokers (executor_main.cpp) are both built
// from, so a call cannot be encoded with one signature and made with another. The traits functions
// are not here: the probe reads them at build time, in a process of its own.
//
// How each C parameter type crosses the process boundary (wire::arg_kind):
//   float*, const float*, double*, const double*   a judge buffer (CUDA IPC handle + offset), or null
//   int                                           i32
//   size_t, unsigned long long                    u64
//   double                                        f64
//   cudaStream_t                                  the executor's own stream
//   int*                                          an int the entry writes, sent back in the reply
#pragma once

#include "grading/executor/wire.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

// X(name, return type, parameter types)
#define KC_SUBMISSION_ENTRY_POINTS(X)                                                                                   \
  X(kc_reduction_pass, const char*, float*, float*, size_t, int, int, cudaStream_t)                                   \
  X(kc_reduction_scratch_floats, size_t, size_t, int)                                                                 \
  X(kc_reduction_full, const char*, float*, float*, size_t, int, float*, cudaStream_t)                                \
  X(kc_matmul, const char*, const float*, const float*, float*, int, int, int, int, int, cudaStream_t)                \
  X(kc_access_coalesced, const char*, const float*, const float*, float*, size_t, int, int, cudaStream_t)             \
  X(kc_access_random, const char*, const float*, const float*, float*, size_t, int, int, unsigned long long,          \
    cudaStream_t)                                                                                                       \
  X(kc_access_grouped, const char*, const float*, const float*, float*, size_t, int, int, unsigned long long,         \
    cudaStream_t)                                                                                                       \
  X(kc_warp_no_divergence, const char*, const float*, const float*, float*, size_t, int, int, cudaStream_t)           \
  X(kc_warp_divergence, const char*, const float*, const float*, float*, size_t, int, int, cudaStream_t)              \
  X(kc_vector_add, const char*, const float*, const float*, float*, size_t, int, int, cudaStream_t)                   \
  X(kc_vector_add_kernel, const void*)                                                                                \
  X(kc_occupancy_answer, const char*, int, int*, int*)                                                                \
  X(kc_conv2d, const char*, const double*, double*, int, int, int, int, cudaStream_t)                                 \
  X(kc_atax, const char*, const double*, const double*, double*, double*, int, int, int, cudaStream_t)                \
  X(kc_covariance, const char*, double*, double*, double*, int, int, double, int, cudaStream_t)

namespace kc::grading::wire {

// The wire kind of a C parameter type (a static_assert names a type no contract may use).
template <class T>
constexpr arg_kind kind_of() {
  if constexpr (std::is_same_v<T, cudaStream_t>) return arg_kind::stream;
  else if constexpr (std::is_same_v<T, int*>) return arg_kind::host_i32_out;
  else if constexpr (std::is_pointer_v<T>) {
    using pointee = std::remove_cv_t<std::remove_pointer_t<T>>;
    static_assert(std::is_same_v<pointee, float> || std::is_same_v<pointee, double>, "a device buffer of float or double");
    return arg_kind::device_pointer;
  } else if constexpr (std::is_same_v<T, int>) return arg_kind::i32;
  else if constexpr (std::is_same_v<T, size_t> || std::is_same_v<T, unsigned long long>) return arg_kind::u64;
  else if constexpr (std::is_same_v<T, double>) return arg_kind::f64;
  else static_assert(sizeof(T) == 0, "a parameter type no contract uses");
}

}  // namespace kc::grading::wire
