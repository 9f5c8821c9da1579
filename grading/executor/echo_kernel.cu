#include "grading/executor/echo_kernel.hpp"

namespace {
__global__ void echo_kernel() {}
}  // namespace

void launch_echo_kernel(cudaStream_t stream) { echo_kernel<<<1, 1, 0, stream>>>(); }
