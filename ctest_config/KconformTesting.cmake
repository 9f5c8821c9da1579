# How kconform registers its tests with CTest. Every test executable goes through one of these
# helpers, so labels, GPU resources, timeouts and JUnit output are set in one place.
#
# Labels (select with ctest -L / -LE):
#   cpu         runs anywhere; CI runs these for real
#   gpu         needs a CUDA device; skipped (not passed) where there is none
#   correctness GPU output against the CPU reference
#   known_bad   the seeds' buggy kernels, which the suite must reject
#   sanitizer   compute-sanitizer runs (memcheck, racecheck, synccheck, initcheck)
#   benchmark   timing reports; never assert on time
#   <family>    reduction, matmul, ...
#
# GPU tests declare RESOURCE_GROUPS gpus:1. With a resource spec (ctest_config/resources_*.json)
# CTest hands each test a GPU slot and the test's main() selects that device from
# CTEST_RESOURCE_GROUP_0_GPUS (fixtures/gpu_environment.cpp).

set(KCONFORM_SANITIZER_RUNNER "${CMAKE_CURRENT_LIST_DIR}/run_sanitizer.sh")
set(KCONFORM_SKIP_RETURN_CODE 77)

# kconform_test_executable(<target> SOURCES <src...> [LIBRARIES <lib...>] [DEFINITIONS <def...>])
# A GoogleTest executable with kconform's main(); not registered with CTest by itself.
function(kconform_test_executable target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES;DEFINITIONS" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE kconform::fixtures kconform::test_main GTest::gtest ${ARG_LIBRARIES})
  target_compile_features(${target} PRIVATE cxx_std_20)
  target_compile_definitions(${target} PRIVATE ${ARG_DEFINITIONS})
endfunction()

# kconform_add_gtest(<target> FAMILY <family> [GPU] [KNOWN_BAD] SOURCES <src...> [LIBRARIES <lib...>]
#                    [DEFINITIONS <def...>] [TIMEOUT <seconds>])
# Builds the executable and registers each of its test cases as a CTest test (discovered when
# ctest runs, so listing needs no GPU), with the labels and GPU resources its kind calls for.
function(kconform_add_gtest target)
  cmake_parse_arguments(ARG "GPU;KNOWN_BAD" "FAMILY;TIMEOUT" "SOURCES;LIBRARIES;DEFINITIONS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  kconform_test_executable(${target} SOURCES ${ARG_SOURCES} LIBRARIES ${ARG_LIBRARIES} DEFINITIONS ${ARG_DEFINITIONS})

  if(ARG_GPU)
    set(labels gpu ${ARG_FAMILY})
    if(ARG_KNOWN_BAD)
      list(APPEND labels known_bad)
    else()
      list(APPEND labels correctness)
    endif()
    set(resources RESOURCE_GROUPS "gpus:1")
  else()
    set(labels cpu ${ARG_FAMILY})
    set(resources)
  endif()

  # Labels are applied after discovery, from a CTest include file that sees the discovered names
  # (<target>_TESTS): gtest_discover_tests writes its PROPERTIES into set_tests_properties()
  # unquoted, so a list value there is split into separate (name, value) pairs and shifts every
  # property after it.
  gtest_discover_tests(${target}
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    XML_OUTPUT_DIR "${CMAKE_BINARY_DIR}/gtest-xml/${target}"
    PROPERTIES
      TIMEOUT ${ARG_TIMEOUT}
      ENVIRONMENT "OMP_NUM_THREADS=2"
      ${resources})
  set(label_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
  file(WRITE "${label_file}"
    "if(${target}_TESTS)\n  set_tests_properties(\${${target}_TESTS} PROPERTIES LABELS \"${labels}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${label_file}")
endfunction()

# kconform_add_sanitizer_runs(<gtest target> FAMILY <family> FILTER <gtest filter>
#                             [EXPECT_HAZARD <tool> <gtest filter> <name>]...)
#
# One CTest test per compute-sanitizer tool, each running the small cases (FILTER) of a family's
# GPU suite. Any reported hazard fails the test, warnings included: racecheck reports the
# volatile-without-__syncwarp race of seed 000's K5 as a *warning*, so --error-exitcode alone would
# let it pass (see run_sanitizer.sh).
function(kconform_add_sanitizer_runs target)
  cmake_parse_arguments(ARG "" "FAMILY;FILTER" "" ${ARGN})
  foreach(tool memcheck racecheck synccheck initcheck)
    set(name "sanitizer.${tool}.${ARG_FAMILY}")
    add_test(NAME ${name}
      COMMAND "${KCONFORM_SANITIZER_RUNNER}" ${tool} clean $<TARGET_FILE:${target}> "${ARG_FILTER}")
    set_tests_properties(${name} PROPERTIES
      LABELS "gpu;sanitizer;${ARG_FAMILY}"
      RESOURCE_GROUPS "gpus:1"
      SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
      TIMEOUT 900)
  endforeach()
endfunction()

# kconform_expect_sanitizer_hazard(<gtest target> FAMILY <family> TOOL <tool> NAME <case name>
#                                  FILTER <gtest filter>)
#
# The known-bad twin of the above: passes only if <tool> reports a hazard in the filtered cases.
# This is how the suite catches a race that is latent on the GPU at hand (right answer, wrong code).
function(kconform_expect_sanitizer_hazard target)
  cmake_parse_arguments(ARG "" "FAMILY;TOOL;NAME;FILTER" "" ${ARGN})
  set(name "sanitizer.${ARG_TOOL}.${ARG_FAMILY}.catches.${ARG_NAME}")
  add_test(NAME ${name}
    COMMAND "${KCONFORM_SANITIZER_RUNNER}" ${ARG_TOOL} expect-hazard $<TARGET_FILE:${target}> "${ARG_FILTER}")
  set_tests_properties(${name} PROPERTIES
    LABELS "gpu;sanitizer;known_bad;${ARG_FAMILY}"
    RESOURCE_GROUPS "gpus:1"
    SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
    TIMEOUT 600)
endfunction()

# kconform_add_benchmark(<target> FAMILY <family> SOURCES <src...> [LIBRARIES <lib...>])
# Benchmarks report; they never assert on time. They run alone (RUN_SERIAL) so that concurrent
# tests do not share the GPU with them, and write their tables to KCONFORM_REPORT_DIR if set.
function(kconform_add_benchmark target)
  cmake_parse_arguments(ARG "" "FAMILY" "SOURCES;LIBRARIES" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE kconform::fixtures ${ARG_LIBRARIES})
  target_compile_features(${target} PRIVATE cxx_std_20)
  add_test(NAME benchmark.${ARG_FAMILY} COMMAND ${target})
  set_tests_properties(benchmark.${ARG_FAMILY} PROPERTIES
    LABELS "gpu;benchmark;${ARG_FAMILY}"
    RUN_SERIAL TRUE
    RESOURCE_GROUPS "gpus:1"
    SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
    TIMEOUT 900)
endfunction()
