// Device helpers shared by the access family's kernels (nvcc only).
#pragma once

#include "kernels/access/index_functions.hpp"

#include <cstddef>

namespace kc::access::detail {

__device__ __forceinline__ std::size_t global_thread() {
  return static_cast<std::size_t>(blockDim.x) * blockIdx.x + threadIdx.x;
}

// The seed's if / else-if chain over the four operations. Division is __fdiv_rn (IEEE round to
// nearest even, whatever -prec-div or fast-math says), so the host reference is bit-identical.
__device__ __forceinline__ void one_of_four(int branch, const float* a, const float* b, float* c, std::size_t i) {
  if (branch == 0)
    c[i] = a[i] + b[i];
  else if (branch == 1)
    c[i] = a[i] - b[i];
  else if (branch == 2)
    c[i] = a[i] * b[i];
  else
    c[i] = __fdiv_rn(a[i], b[i]);
}

}  // namespace kc::access::detail
