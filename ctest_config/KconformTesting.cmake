# How kconform registers its tests with CTest. Every test executable goes through one of these
# helpers, so labels, GPU resources, timeouts and JUnit output are set in one place.
#
# Labels (select with ctest -L / -LE):
#   cpu         runs anywhere; CI runs these for real
#   gpu         needs a CUDA device; skipped (not passed) where there is none
#   correctness GPU output against the CPU reference
#   known_bad   the seeds' buggy kernels, which the suite must reject
#   sanitizer   compute-sanitizer runs (memcheck, racecheck, synccheck, initcheck)
#   huge        sizes past 2^31 elements (index overflow), run alone
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

# kconform_add_gtest(<target> FAMILY <family> [GPU] [KNOWN_BAD] [RUN_SERIAL] SOURCES <src...>
#                    [LIBRARIES <lib...>] [DEFINITIONS <def...>] [TIMEOUT <seconds>])
# RUN_SERIAL: its tests run with nothing else on the machine (the schedule tests: other processes'
# kernels time-slice the GPU and would change the schedule under test).
# Builds the executable and registers each of its test cases as a CTest test (discovered when
# ctest runs, so listing needs no GPU), with the labels and GPU resources its kind calls for.
function(kconform_add_gtest target)
  cmake_parse_arguments(ARG "GPU;KNOWN_BAD;RUN_SERIAL" "FAMILY;TIMEOUT" "SOURCES;LIBRARIES;DEFINITIONS" ${ARGN})
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
  if(ARG_RUN_SERIAL)
    list(APPEND resources RUN_SERIAL TRUE)
  endif()

  # Labels are applied after discovery, from a CTest include file that sees the discovered names
  # (<target>_TESTS): gtest_discover_tests writes its PROPERTIES into set_tests_properties()
  # unquoted, so a list value there is split into separate (name, value) pairs and shifts every
  # property after it.
  # NO_PRETTY_VALUES: every parameterised suite here names its cases with a name generator, and
  # without it CMake keeps gtest's "# GetParam() = <raw bytes>" in the CTest name — bytes that
  # change from run to run and break JUnit history and --rerun-failed.
  gtest_discover_tests(${target}
    NO_PRETTY_VALUES
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

# kconform_expect_sanitizer_hazards(<target> FAMILY <family> TOOLS <tool...>)
#
# The known-bad twin of the above. <target> is a program (kconform_test_executable, not discovered
# by CTest) with one case per registry row that a sanitizer must catch, named
# SanitizerCatches/RunsUnder<Tool>.Row/<row>. One CTest test per tool runs each of that tool's cases
# on its own and passes only if the tool reports a hazard in every one; the rows come from the
# registry, so CMake names tools, never rows. A tool with no row reports itself skipped.
function(kconform_expect_sanitizer_hazards target)
  cmake_parse_arguments(ARG "" "FAMILY" "TOOLS" ${ARGN})
  foreach(tool IN LISTS ARG_TOOLS)
    string(SUBSTRING "${tool}" 0 1 first)
    string(SUBSTRING "${tool}" 1 -1 rest)
    string(TOUPPER "${first}" first)
    set(name "sanitizer.${tool}.${ARG_FAMILY}.catches")
    add_test(NAME ${name}
      COMMAND "${KCONFORM_SANITIZER_RUNNER}" ${tool} expect-hazard-each $<TARGET_FILE:${target}>
              "SanitizerCatches/RunsUnder${first}${rest}.*")
    set_tests_properties(${name} PROPERTIES
      LABELS "gpu;sanitizer;known_bad;${ARG_FAMILY}"
      RESOURCE_GROUPS "gpus:1"
      SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
      TIMEOUT 600)
  endforeach()
endfunction()

# kconform_add_whole_program_test(<target> FAMILY <family> LABELS <label...> [TIMEOUT <s>])
# One CTest test that runs every case of <target> in one process, alone on the machine (RUN_SERIAL),
# with every CPU core for the references: for cases that need most of the GPU's memory and share
# expensive inputs (the 2^31-element sizes). Per-case verdicts are in its gtest XML.
function(kconform_add_whole_program_test target)
  cmake_parse_arguments(ARG "" "FAMILY;TIMEOUT" "LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  set(name "${ARG_FAMILY}.${target}")
  add_test(NAME ${name}
    COMMAND ${target} --gtest_output=xml:${CMAKE_BINARY_DIR}/gtest-xml/${target}/${target}.xml)
  set_tests_properties(${name} PROPERTIES
    LABELS "gpu;${ARG_FAMILY};${ARG_LABELS}"
    RUN_SERIAL TRUE
    RESOURCE_GROUPS "gpus:1"
    ENVIRONMENT "KCONFORM_ALL_SKIPPED_EXIT=${KCONFORM_SKIP_RETURN_CODE}"
    SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
    TIMEOUT ${ARG_TIMEOUT})
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

# Every CTest name is stable and readable (no printed parameter bytes): checked on every machine.
add_test(NAME names.stable COMMAND "${CMAKE_CURRENT_LIST_DIR}/check_test_names.sh" "${CMAKE_BINARY_DIR}")
set_tests_properties(names.stable PROPERTIES LABELS "cpu;fixtures" TIMEOUT 120)
