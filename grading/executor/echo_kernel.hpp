// The echo executor's work (kconform_executor --echo): a one-thread kernel that does nothing, so a
// call to it costs what any call costs by itself (the channel, the launch, the wait).
#pragma once

#include <cuda_runtime_api.h>

void launch_echo_kernel(cudaStream_t stream);
