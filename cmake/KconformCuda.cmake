# kconform_cuda_target(<target>): the CUDA compile options every kernel library uses.
#   -std=c++20  CMake 3.25 knows no C++20 dialect for nvcc (CUDA_STANDARD 20 fails to configure
#               there), so the flag is given directly; CMake 4 accepts it the same way.
#   -lineinfo   compute-sanitizer reports then name the source line of a race or bad access.
function(kconform_cuda_target target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>
    $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
endfunction()
