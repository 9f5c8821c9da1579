# Default CUDA architectures, chosen before project() so the CUDA compiler check uses them.
#
#   - The caller's choice wins: -DCMAKE_CUDA_ARCHITECTURES=... or the CUDAARCHS environment variable.
#   - A machine whose nvidia-smi reports a GPU builds for that GPU only ("native": fastest build,
#     and the SASS that actually runs is what the tests exercise).
#   - A machine without a GPU (CI) builds for an explicit list. 90 (Hopper) is the GPU box; 75 adds
#     the Turing T4 of seed 000 and embeds compute_75 PTX that any newer GPU can JIT-compile.
#     Override with KCONFORM_FALLBACK_CUDA_ARCHITECTURES to trade build time for coverage.
set(KCONFORM_FALLBACK_CUDA_ARCHITECTURES "90" CACHE STRING
    "CUDA architectures used when no GPU is detected at configure time")

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  find_program(KCONFORM_NVIDIA_SMI nvidia-smi)
  set(_kconform_gpu_found FALSE)
  if(KCONFORM_NVIDIA_SMI)
    execute_process(
      COMMAND "${KCONFORM_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
      RESULT_VARIABLE _kconform_smi_result
      OUTPUT_VARIABLE _kconform_smi_output
      ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_kconform_smi_result EQUAL 0 AND _kconform_smi_output MATCHES "^[0-9]+\\.[0-9]+")
      set(_kconform_gpu_found TRUE)
    endif()
  endif()
  if(_kconform_gpu_found)
    set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures")
    message(STATUS "kconform: GPU found (compute capability ${_kconform_smi_output}); building for native")
  else()
    set(CMAKE_CUDA_ARCHITECTURES "${KCONFORM_FALLBACK_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures")
    message(STATUS "kconform: no GPU found; building for ${CMAKE_CUDA_ARCHITECTURES}")
  endif()
endif()
