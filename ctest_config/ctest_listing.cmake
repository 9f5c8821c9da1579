# Included by the -P scripts that check a build's CTest registration (check_gpu_run_phases.cmake,
# check_test_costs.cmake): the build's tests as CTest lists them, with their properties.
#
#   kconform_ctest_listing(<build dir> <out var>)   the JSON of `ctest --show-only=json-v1`; fails
#                                                   the script, saying why, if ctest cannot list
function(kconform_ctest_listing build_dir out)
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${build_dir}" --show-only=json-v1
    OUTPUT_VARIABLE listing RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ctest --show-only=json-v1 failed: ${errors}")
  endif()
  set(${out} "${listing}" PARENT_SCOPE)
endfunction()
