# cmake -DBUILD_DIR=<build dir> -DCOSTS=<test_costs.txt> -P check_test_costs.cmake
#
# ctest_config/test_costs.txt seeds CTest's cost data in a fresh build (CMakeLists.txt), which starts
# the longest tests first (docs/architecture.md, "Longest first"). CTest reads that file silently: a
# malformed line or a table of names that no longer exist orders nothing, and the GPU run's tail
# comes back. Checked here: every line is "<test name> <runs> <seconds>" and the table ends with
# "---" (CTest's format), and most of its names (>= 80%) are tests of this build; the stale ones are
# named (refresh: copy a GPU run's report/test_costs.txt over the file).
cmake_minimum_required(VERSION 3.25)

file(STRINGS "${COSTS}" lines)
list(LENGTH lines count)
if(count EQUAL 0)
  message(FATAL_ERROR "FAILED: ${COSTS} is empty")
endif()
list(POP_BACK lines last)
if(NOT last STREQUAL "---")
  message(FATAL_ERROR "FAILED: ${COSTS} does not end with CTest's \"---\" line (the last line is \"${last}\")")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/ctest_listing.cmake")
kconform_ctest_listing("${BUILD_DIR}" listing)
string(JSON ntests LENGTH "${listing}" tests)
math(EXPR tlast "${ntests} - 1")
set(known "")
foreach(i RANGE ${tlast})
  string(JSON name GET "${listing}" tests ${i} name)
  string(APPEND known "\n${name}\n")
endforeach()

set(bad "")
set(stale "")
set(entries 0)
foreach(line IN LISTS lines)
  math(EXPR entries "${entries} + 1")
  if(NOT line MATCHES "^([^ ]+) [0-9]+ [0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?$")
    string(APPEND bad "\n  \"${line}\"")
    continue()
  endif()
  string(FIND "${known}" "\n${CMAKE_MATCH_1}\n" at)
  if(at EQUAL -1)
    string(APPEND stale " ${CMAKE_MATCH_1}")
  endif()
endforeach()
if(NOT bad STREQUAL "")
  message(FATAL_ERROR "FAILED: lines of ${COSTS} that are not \"<test name> <runs> <seconds>\":${bad}")
endif()
string(REGEX MATCHALL "[^ ]+" stale_list "${stale}")
list(LENGTH stale_list nstale)
math(EXPR limit "${entries} / 5")
if(nstale GREATER limit)
  message(FATAL_ERROR "FAILED: ${nstale} of the ${entries} tests in ${COSTS} are not tests of this build "
                      "(refresh it from a GPU run's test_costs.txt):${stale}")
endif()
message(STATUS "${entries} measured tests, ${nstale} not in this build:${stale}")
