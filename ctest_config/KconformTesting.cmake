# How kconform registers its tests with CTest. Every test executable goes through one of these
# helpers, so labels, GPU resources, timeouts and JUnit output are set in one place.
#
# Labels (select with ctest -L / -LE):
#   cpu         runs anywhere; CI runs these for real
#   gpu         needs a CUDA device; skipped (not passed) where there is none
#   correctness GPU output against the CPU reference
#   known_bad   the seeds' buggy kernels, which the suite must reject
#   sanitizer   compute-sanitizer runs (memcheck, racecheck, synccheck, initcheck)
#   huge        sizes past 2^31 elements (index overflow); they share the GPU, every core for their references
#   schedule    schedule perturbation, alone on the machine
#   benchmark   timing reports; never assert on time
#   runner      the runner's own isolation tests (a hanging, crashing and exiting case)
#   perf        time against the stored per-GPU baseline, and the seeds' in-run conclusions (alone on the GPU)
#   profile     hardware-counter assertions under Nsight Compute (alone on the GPU; skipped without ncu)
#   alone       every test that needs the machine to itself (RUN_SERIAL: perf, benchmark, profile,
#               schedule), or with several GPUs its GPU to itself (KCONFORM_ALONE_PER_GPU, below).
#               The GPU run (scripts/run_gpu_suite.sh) runs the others first, then these (back to
#               back on one GPU, one per GPU on several), so no test waits for the GPU to drain
#               (presets gpu-shared, gpu-alone).
#   <family>    reduction, matmul, ...
#
# GPU tests are units of many cases run by tools/runner (kconform_add_gpu_suite) and declare
# RESOURCE_GROUPS gpus:1 (gpus:KCONFORM_GPU_SLOTS when EXCLUSIVE). With a resource spec
# (ctest_config/resources_*.json, make_resource_spec.sh) CTest hands each a GPU slot and the
# program selects that device from CTEST_RESOURCE_GROUP_0_GPUS (fixtures/gpu_environment.cpp):
# with N GPUs, units spread over all N.

set(KCONFORM_SANITIZER_RUNNER "${CMAKE_CURRENT_LIST_DIR}/run_sanitizer.sh")
set(KCONFORM_EVERY_GPU_LAUNCHER "${CMAKE_CURRENT_LIST_DIR}/on_every_resource_gpu.sh")
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

# kconform_add_gtest(<target> FAMILY <family> SOURCES <src...> [LIBRARIES <lib...>] [DEFINITIONS <def...>]
#                    [TIMEOUT <seconds>])
# A CPU test executable: each of its test cases is a CTest test (discovered when ctest runs, so
# listing needs no GPU), labelled cpu and <family>. CPU cases are cheap to start; GPU suites go
# through kconform_add_gpu_suite instead, which runs many cases per process.
function(kconform_add_gtest target)
  cmake_parse_arguments(ARG "" "FAMILY;TIMEOUT" "SOURCES;LIBRARIES;DEFINITIONS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  kconform_test_executable(${target} SOURCES ${ARG_SOURCES} LIBRARIES ${ARG_LIBRARIES} DEFINITIONS ${ARG_DEFINITIONS})
  # Labels are applied after discovery, from a CTest include file that sees the discovered names
  # (<target>_TESTS): gtest_discover_tests writes its PROPERTIES into set_tests_properties()
  # unquoted, so a list value there is split into separate (name, value) pairs.
  # NO_PRETTY_VALUES: no "# GetParam() = ..." text in CTest names.
  gtest_discover_tests(${target}
    NO_PRETTY_VALUES
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    XML_OUTPUT_DIR "${CMAKE_BINARY_DIR}/gtest-xml/${target}"
    PROPERTIES
      TIMEOUT ${ARG_TIMEOUT}
      ENVIRONMENT "OMP_NUM_THREADS=2")
  set(label_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
  file(WRITE "${label_file}"
    "if(${target}_TESTS)\n  set_tests_properties(\${${target}_TESTS} PROPERTIES LABELS \"cpu;${ARG_FAMILY}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${label_file}")
endfunction()

# How many GPU test processes share one GPU at a time: CTest resource slots per GPU. A unit asks for
# one slot; an EXCLUSIVE unit (the perf points, the schedule tests) asks for all of them, so it
# has its GPU to itself (all of them are RUN_SERIAL too: the machine to themselves). make_resource_spec.sh writes specs with
# this many slots per GPU (ctest_config/resources_*.json hold the same). 8 since issue 21: with the
# seeds' slowest kernels no longer holding the time-sliced GPU for seconds, the run's last third is
# small units whose time is CPU work and process start-up, not the GPU; the shared phase on an H100
# took 71 s at 4 slots, 62 s at 6 and 59 s at 8 (6534f2f; docs/architecture.md, "The runner").
# 10 since the shared processes wait for the GPU blocking (KCONFORM_SHARED_CUDA_SYNC): the host's
# CPUs were 62-75% busy at 8, and the phase took 63.6 s at 8, 60.1 s at 10 and 60.1 s at 12 (H100, dd39a18).
set(KCONFORM_GPU_SLOTS 10 CACHE STRING "GPU test processes per GPU at a time (CTest resource slots per GPU)")
# A unit with more cases than this runs as several shards (test names <unit>.<i>of<n>).
set(KCONFORM_CASES_PER_SHARD 700 CACHE STRING "Most cases one CTest test (process) runs")
# ... and a unit that took longer than this in the recorded run (ctest_config/test_costs.txt: its
# whole seconds, or its shards' together, from entries of at least one passing run) runs as enough shards that each takes about this long, so that no
# one process is the shared phase's tail. Read from the checked-in file only, never from the build's
# own cost data (which every run rewrites), so a test's name changes only when the file is refreshed.
# Why: on 4 H100s (b498e02) the shared phase took 50 s, 45 s of it polybench_covariance.conformance.Large
# (48 cases, 38 s of long-double references at 2 threads): the next longest units took ~22 s.
set(KCONFORM_SECONDS_PER_SHARD 15 CACHE STRING "Seconds a unit may take (as recorded) before it is split into shards")
# gpu-quick's test of a program (label quick) runs its quick units in one process, or in parts of
# about this many cases each (largest first into the part with the fewest cases; a unit of more cases
# than this in contiguous slices of at most this many, kconform_runner --units <unit>@<i>/<n>). Why:
# on an H100 (3350250) gpu-quick took 11.3-13.2 s, and its critical path was the two programs whose
# quick units hold 6,951 and 4,800 cases (reduction 10.4 s, matmul 10.1 s); every other holds under
# 750. With whole units only (7a7ffcf: reduction 4 parts, matmul 2, `PatchPerThread`'s 2,690 cases
# alone) it took 12.85 s, each of those parts 9.0-10.3 s, the unit alone the longest; so a unit is
# now sliced too, though reduction's quarters (9.0-9.5 s against 10.4 s whole) say a process's time is
# far from its share of the cases. 2,000 makes reduction 4 processes and matmul 3, the others one;
# what pays is for scripts/quick_part_sweep.sh to measure. The counts are every case of those units,
# the quick run's cheap ones (declared cost <= 2) and the rest it leaves out: a proxy for its time.
set(KCONFORM_QUICK_CASES_PER_PROCESS 2000 CACHE STRING "Cases of a program's quick units per gpu-quick process")
if(NOT KCONFORM_QUICK_CASES_PER_PROCESS MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "KCONFORM_QUICK_CASES_PER_PROCESS must be a positive whole number, not '${KCONFORM_QUICK_CASES_PER_PROCESS}'")
endif()
# The recorded run's seconds a test (above); a cache entry so that a registration test can hand its own.
set(KCONFORM_RECORDED_COSTS "${CMAKE_CURRENT_LIST_DIR}/test_costs.txt" CACHE FILEPATH
    "The recorded seconds of each test (CTest's cost-data format) that shards and packs are decided from")
# Packs (0 here, the presets' value, is off; scripts/run_gpu_suite.sh, the main job, passes 12 unless
# KCONFORM_PACK_SECONDS says otherwise): in the shared phase, a program's small units run together in
# processes of about this many recorded seconds (<family>.<kind>.pack<i>of<n>, kconform_runner
# --units: each unit still reported as its own, a crash or hang costing its case), instead of one
# process each. Why: a process's first case waits to open the GPU (the CUDA start-up, which the driver
# makes one at a time for the host), and on 4 H200s at c36ac4f that was 285 of the shared phase's 733
# unit-seconds; the 63 units under 5 s (of 124) spent 142 of their 236 opening it. A unit is packed
# when it is whole (one shard), not a Large one, and recorded (KCONFORM_RECORDED_COSTS) at no more than
# half a pack; first fit, longest first; a unit left alone in a pack keeps its own test. Names follow
# the recorded file, so they change only when it is refreshed. Not in the alone phase (RUN_SERIAL),
# the huge suites (every core each) or the sanitizer runs. With packs on: a name filter (-R, -E) sees
# the pack, not the units in it; gpu-quick-per-unit runs the packs whole; a run's test_costs.txt gains
# the packs' seconds and keeps its units' old ones (CTest keeps the lines of tests it did not run), so
# refresh the checked-in file from a run without packs (KCONFORM_PACK_SECONDS=0 scripts/run_gpu_suite.sh).
set(KCONFORM_PACK_SECONDS 0 CACHE STRING "Recorded seconds of a pack of small GPU units run in one process (0: every unit its own)")
if(NOT KCONFORM_PACK_SECONDS MATCHES "^(0|[1-9][0-9]*)$")
  message(FATAL_ERROR "KCONFORM_PACK_SECONDS must be a whole number (0: off), not '${KCONFORM_PACK_SECONDS}'")
endif()
# OpenMP threads each GPU test process uses for its CPU references (cores over the processes at once
# on the GPU box, rounded up: run_gpu_suite.sh passes ceil(nproc / min(16, KCONFORM_GPU_SLOTS · GPUs)),
# 2 on 16 cores and one GPU at 10 slots, 4 on 64 cores and 4 GPUs). RUN_SERIAL suites and the
# 2^31-element ones get every core.
set(KCONFORM_REFERENCE_THREADS 2 CACHE STRING "OpenMP threads per GPU test process")
cmake_host_system_information(RESULT KCONFORM_ALL_CORES QUERY NUMBER_OF_LOGICAL_CORES)
# How a test process that shares the GPU waits for it (KCONFORM_CUDA_SYNC, fixtures/gpu_environment.hpp):
# CUDA's default spins while a process has fewer contexts than the host has cores, so eight
# processes each held a core through every wait — cores the others' CPU references needed. Tests
# alone on the machine keep CUDA's default (nothing else wants the cores).
set(KCONFORM_SHARED_CUDA_SYNC blocking CACHE STRING "How a GPU test process sharing the GPU waits for it: blocking, yield, spin or auto")
# The environment entry every test that shares the GPU carries (units, sanitizer runs, runner.isolation).
set(KCONFORM_SHARED_GPU_ENVIRONMENT "KCONFORM_CUDA_SYNC=${KCONFORM_SHARED_CUDA_SYNC}")

# Where a test that needs a GPU to itself (label alone) runs (issue 34). OFF (one GPU, and the
# default): alone on the machine, RUN_SERIAL, one after another, with every core. ON (several GPUs:
# scripts/run_gpu_suite.sh sets it when it sees more than one): alone on *its* GPU (every slot of one
# GPU's resource group, no RUN_SERIAL), so on N GPUs N of them run at once, each with
# KCONFORM_ALONE_REFERENCE_THREADS cores' worth of OpenMP threads (run_gpu_suite.sh: cores / GPUs),
# which bounds the CPU they contend for. labels.gpu_run_phases checks either form.
option(KCONFORM_ALONE_PER_GPU "Tests labelled alone have their GPU to themselves, not the machine" OFF)
# How many GPUs the run uses (run_gpu_suite.sh: those it sees). With KCONFORM_ALONE_PER_GPU and more
# than one, a suite registered EVERY_GPU (the perf points) runs each unit (but those EVERY_GPU_EXCEPT
# names) on every GPU at once, each copy alone on its card (RESOURCE_GROUPS "<count>,gpus:<slots>", ctest_config/on_every_resource_gpu.sh),
# so every card of the host is judged against its model's stored baseline and a slow one is named.
# The configure presets set both to one GPU (OFF, 1) on every `cmake --preset`, so a build that once
# ran on several does not keep asking for them: the test presets' resource spec
# (ctest_config/resources_1gpu.json) has one GPU, and a perf unit asking for more would not run
# ("Insufficient resources": scripts/record_baselines.sh would record nothing).
set(KCONFORM_GPU_COUNT 1 CACHE STRING "GPUs the GPU run uses; EVERY_GPU suites fan out to each (with KCONFORM_ALONE_PER_GPU)")
set(KCONFORM_ALONE_REFERENCE_THREADS ${KCONFORM_ALL_CORES} CACHE STRING
    "OpenMP threads of a test alone on its GPU (KCONFORM_ALONE_PER_GPU)")
# The OpenMP threads of a test labelled alone.
if(KCONFORM_ALONE_PER_GPU)
  set(KCONFORM_ALONE_THREADS ${KCONFORM_ALONE_REFERENCE_THREADS})
else()
  set(KCONFORM_ALONE_THREADS ${KCONFORM_ALL_CORES})
endif()

# kconform_add_gpu_suite(<target> FAMILY <family> KIND <kind> SOURCES <src...> [LIBRARIES <lib...>]
#                        [LABELS <label...>] [EXCLUSIVE] [RUN_SERIAL] [TIMEOUT <s>] [CASE_TIMEOUT <s>]
#                        [REFERENCE_THREADS <n>] [PRIORITY <cost>] [SECONDS_PER_SHARD <s>] [EVERY_GPU]
#                        [EVERY_GPU_EXCEPT <regex>])
# EVERY_GPU (with RUN_SERIAL: the perf suites): on a run of several GPUs, each alone test on its own
# (KCONFORM_ALONE_PER_GPU, KCONFORM_GPU_COUNT > 1), every unit runs once on each GPU, all at once, as
# units <name>.gpu<k>, each copy with KCONFORM_ALONE_REFERENCE_THREADS OpenMP threads (cores / GPUs).
# EVERY_GPU_EXCEPT leaves out the units whose name matches (a seed's in-run conclusions,
# SeedConclusions: ratios of two kernels timed in one process, no baseline): they run once, alone on
# one GPU, as on one GPU, while every other unit (the perf points, AgainstBaseline, judged on every
# card against its model's baseline, and any added later) still fans out:
# on 2 H100s at 545767d the seed conclusions' 10 s held both GPUs, and their 6 cases ran twice
# (17,555 cases against one GPU's 17,484: the perf points' 65 copies and those).
# PRIORITY is added to each unit's declared cost: CTest starts the highest cost first, so units that
# are long and mostly CPU work (the 2^31 sizes) start early and overlap the GPU-bound ones. A unit
# with measured seconds (ctest_config/test_costs.txt, CTest's cost data) is ordered by those instead.
# SECONDS_PER_SHARD overrides KCONFORM_SECONDS_PER_SHARD for the suite's units (0: never split by time;
# RUN_SERIAL suites never are).
#
# A GoogleTest program of GPU cases, registered as one CTest test per *unit* (tools/runner): the
# cases a family groups together (a variant's, by default the suite's), run in one process and one
# CUDA context by kconform_runner, which isolates a case that crashes, hangs or exits and resumes
# the rest in a fresh process. Test names: <family>.<kind>.<unit> (reduction.conformance.WarpShuffle,
# matmul.conformance.PatchPerThread.Large, matmul.known_bad.KnownBadMatmul), labels gpu, <family>,
# <kind> and LABELS; per-case verdicts in units/<name>.xml. Units are listed when ctest runs (the
# program is asked, without touching CUDA), and ordered heaviest first by their declared cost.
function(kconform_add_gpu_suite target)
  cmake_parse_arguments(ARG "EXCLUSIVE;RUN_SERIAL;EVERY_GPU" "FAMILY;KIND;TIMEOUT;CASE_TIMEOUT;REFERENCE_THREADS;PRIORITY;SECONDS_PER_SHARD;EVERY_GPU_EXCEPT" "SOURCES;LIBRARIES;DEFINITIONS;LABELS" ${ARGN})
  if(DEFINED ARG_EVERY_GPU_EXCEPT AND NOT ARG_EVERY_GPU)
    message(FATAL_ERROR "kconform_add_gpu_suite(${target}): EVERY_GPU_EXCEPT without EVERY_GPU")
  endif()
  if(NOT DEFINED ARG_SECONDS_PER_SHARD)
    set(ARG_SECONDS_PER_SHARD ${KCONFORM_SECONDS_PER_SHARD})
  endif()
  if(ARG_RUN_SERIAL)
    set(ARG_SECONDS_PER_SHARD 0)  # alone on the machine or its GPU: no tail to cut, and its reports stay whole
  endif()
  # A test alone on the machine (RUN_SERIAL) has every core for its inputs and references: at the
  # shared phase's cores / slots, the reduction perf points made each 2^26 input on 2 of 16 cores
  # (~0.3 s a point, 22 points) while the rest idled.
  if(NOT ARG_REFERENCE_THREADS AND ARG_RUN_SERIAL)
    set(ARG_REFERENCE_THREADS ${KCONFORM_ALONE_THREADS})
  elseif(NOT ARG_REFERENCE_THREADS)
    set(ARG_REFERENCE_THREADS ${KCONFORM_REFERENCE_THREADS})
  endif()
  # Alone on its GPU (several GPUs), a test runs beside the other GPUs' alone tests (and an EVERY_GPU
  # unit beside its own copies): its share of the cores, even where the suite asks for every core.
  if(ARG_RUN_SERIAL AND KCONFORM_ALONE_PER_GPU AND ARG_REFERENCE_THREADS GREATER KCONFORM_ALONE_REFERENCE_THREADS)
    set(ARG_REFERENCE_THREADS ${KCONFORM_ALONE_REFERENCE_THREADS})
  endif()
  if(NOT ARG_PRIORITY)
    set(ARG_PRIORITY 0)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 900)
  endif()
  if(NOT ARG_CASE_TIMEOUT)
    set(ARG_CASE_TIMEOUT 300)
  endif()
  kconform_test_executable(${target} SOURCES ${ARG_SOURCES} LIBRARIES ${ARG_LIBRARIES} DEFINITIONS ${ARG_DEFINITIONS})
  add_dependencies(${target} kconform_runner)
  set(slots 1)
  if(ARG_EXCLUSIVE)
    set(slots ${KCONFORM_GPU_SLOTS})
  endif()
  # One copy per GPU (EVERY_GPU): the launcher runs the unit on each GPU of its resource groups.
  # In the generated test lines below: the launcher argument, the name's suffix and the groups, as
  # text; where the suite fans out, per unit (a unit EVERY_GPU_EXCEPT names gets none of it).
  set(groups 1)
  set(launcher "")
  set(name_suffix "")
  set(every_gpu_block "")
  if(ARG_EVERY_GPU AND ARG_RUN_SERIAL AND KCONFORM_ALONE_PER_GPU AND KCONFORM_GPU_COUNT GREATER 1)
    set(groups "\${unit_groups}")
    set(launcher "\${unit_launcher}")
    set(name_suffix "\${unit_suffix}")
    # The regex as a bracket argument in the generated file, so it reaches MATCHES as written.
    set(except_test "FALSE")
    if(DEFINED ARG_EVERY_GPU_EXCEPT)
      set(except_test "\"\${unit}\" MATCHES [==[${ARG_EVERY_GPU_EXCEPT}]==]")
    endif()
    set(every_gpu_block "
  # EVERY_GPU: on every GPU at once through the launcher, or (a unit EVERY_GPU_EXCEPT names) once.
  if(${except_test})
    set(unit_launcher)
    set(unit_groups 1)
    set(unit_suffix \"\")
  else()
    set(unit_launcher \"${KCONFORM_EVERY_GPU_LAUNCHER}\")
    set(unit_groups ${KCONFORM_GPU_COUNT})
    set(unit_suffix \".gpu@GPU@\")
  endif()")
  endif()
  set(labels "gpu;${ARG_FAMILY};${ARG_KIND}")
  foreach(label IN LISTS ARG_LABELS)
    string(APPEND labels ";${label}")
  endforeach()
  set(serial "")
  set(environment "OMP_NUM_THREADS=${ARG_REFERENCE_THREADS}")
  if(ARG_RUN_SERIAL AND KCONFORM_ALONE_PER_GPU)
    set(slots ${KCONFORM_GPU_SLOTS})  # its GPU to itself (the machine's other GPUs run others)
    string(APPEND labels ";alone")
  elseif(ARG_RUN_SERIAL)
    set(serial "RUN_SERIAL TRUE")
    string(APPEND labels ";alone")
  else()
    string(APPEND environment ";${KCONFORM_SHARED_GPU_ENVIRONMENT}")
  endif()
  set(prefix "${ARG_FAMILY}.${ARG_KIND}")
  # gpu-quick's test of this program (issue 35): its units but the .Large ones in one shared process
  # (kconform_runner --units: each unit still reported as <prefix>.<unit>, a crash or hang costing its
  # case, a hang streak stopping its own unit; reports under <build>/quick). gpu-quick ran one process per unit and shard, 59 GPU
  # tests (54 running a case) for 16 s on an H100, each paying a CUDA context that the driver makes one at a time
  # (~0.15-0.25 s each, docs/architecture.md, "Start-up"); per program it starts 14. Label quick, not
  # gpu: the full run's phases run the units themselves (presets gpu, gpu-shared exclude it), and
  # preset gpu-quick-per-unit keeps the old way for the comparison. Only for suites gpu-quick runs
  # (not alone, no sanitizer, benchmark, huge, perf, profile or schedule label).
  set(quick_block "")
  set(quick_listing_failed "")
  if(NOT ARG_RUN_SERIAL AND NOT labels MATCHES "sanitizer|benchmark|huge|perf|profile|schedule|grading")
    string(REPLACE ";gpu;" ";quick;" quick_labels ";${labels};")
    string(REGEX REPLACE "^;|;$" "" quick_labels "${quick_labels}")
    # A program that cannot list its cases gets a quick test that fails as its .listing test does
    # (gpu-quick leaves label gpu out, so it would otherwise pass without the program).
    set(quick_listing_failed "
  add_test(${prefix}.quick \"\${runner}\" run --exe \"\${exe}\" --name ${prefix}.quick --report-dir \"${CMAKE_BINARY_DIR}/quick\")
  set_tests_properties(${prefix}.quick PROPERTIES LABELS \"${quick_labels}\")")
    set(quick_block "
# gpu-quick's test: the units above but the Large ones (quick_units and their case counts quick_counts,
# gathered in the loop), in shared processes (KconformTesting.cmake says why): one, or parts of about
# ${KCONFORM_QUICK_CASES_PER_PROCESS} cases each (KCONFORM_QUICK_CASES_PER_PROCESS), named
# ${prefix}.quick.<i>of<n>, each unit in exactly one part, or a unit larger than a part cut into
# contiguous slices of at most that many (<unit>@<i>/<n>, kconform_runner --units), each slice in one part.
if(NOT quick_units STREQUAL \"\")
  list(LENGTH quick_units quick_unit_count)
  set(quick_cases 0)
  set(per_part ${KCONFORM_QUICK_CASES_PER_PROCESS})
  # <count>:<unit or slice>, a slice's count its share of the unit's.
  set(keyed \"\")
  math(EXPR last \"\${quick_unit_count} - 1\")
  foreach(i RANGE \${last})
    list(GET quick_units \${i} unit)
    list(GET quick_counts \${i} count)
    math(EXPR quick_cases \"\${quick_cases} + \${count}\")
    if(count GREATER per_part)
      math(EXPR slices \"(\${count} + \${per_part} - 1) / \${per_part}\")
      foreach(slice RANGE 1 \${slices})
        math(EXPR share \"\${count} * \${slice} / \${slices} - \${count} * (\${slice} - 1) / \${slices}\")
        list(APPEND keyed \"\${share}:\${unit}@\${slice}/\${slices}\")
      endforeach()
    else()
      list(APPEND keyed \"\${count}:\${unit}\")
    endif()
  endforeach()
  list(LENGTH keyed entry_count)
  math(EXPR parts \"(\${quick_cases} + \${per_part} - 1) / \${per_part}\")
  if(parts LESS 1)
    set(parts 1)
  elseif(parts GREATER entry_count)
    set(parts \${entry_count})
  endif()
  # Largest first into the part with the fewest cases so far (sorted by the count), never two slices
  # of one unit in one part (they would share its process for nothing; there are at least as many
  # parts as any unit has slices, so one is always free).
  list(SORT keyed COMPARE NATURAL ORDER DESCENDING)
  foreach(part RANGE 1 \${parts})
    set(part_\${part}_cases 0)
    set(part_\${part}_units \"\")
    set(part_\${part}_sliced \"\")
  endforeach()
  foreach(entry IN LISTS keyed)
    string(REGEX MATCH \"^([0-9]+):(.*)\" matched \"\${entry}\")
    set(count \${CMAKE_MATCH_1})
    set(unit \"\${CMAKE_MATCH_2}\")
    if(count STREQUAL \"\")
      set(count 0)
    endif()
    set(sliced \"\")
    if(unit MATCHES \"^(.*)@[0-9]+/[0-9]+$\")
      set(sliced \"\${CMAKE_MATCH_1}\")
    endif()
    set(emptiest \"\")
    foreach(part RANGE 1 \${parts})
      # list(FIND), not IN_LIST: CTest reads this file with no policies set (CMP0057 OLD).
      list(FIND part_\${part}_sliced \"\${sliced}\" at)
      if(NOT sliced STREQUAL \"\" AND at GREATER -1)
        continue()
      endif()
      if(emptiest STREQUAL \"\" OR part_\${part}_cases LESS part_\${emptiest}_cases)
        set(emptiest \${part})
      endif()
    endforeach()
    math(EXPR part_\${emptiest}_cases \"\${part_\${emptiest}_cases} + \${count}\")
    list(APPEND part_\${emptiest}_units \"\${unit}\")
    if(NOT sliced STREQUAL \"\")
      list(APPEND part_\${emptiest}_sliced \"\${sliced}\")
    endif()
  endforeach()
  math(EXPR part_cost \"\${quick_cost} / \${parts}\")
  foreach(part RANGE 1 \${parts})
    set(name \"${prefix}.quick\")
    if(parts GREATER 1)
      string(APPEND name \".\${part}of\${parts}\")
    endif()
    if(\"\${part_\${part}_units}\" STREQUAL \"\")
      continue()  # more parts than units with cases: none left for this one
    endif()
    string(REPLACE \";\" \",\" units_of_part \"\${part_\${part}_units}\")
    # Its reports in a folder of their own (<build>/quick/units): a run of every test (preset ci, a
    # plain ctest) runs this and the units' own tests at once, which would write the same files.
    add_test(\"\${name}\" \"\${runner}\" run --exe \"\${exe}\" --name \"\${name}\" --units \"\${units_of_part}\" --name-prefix \"${prefix}.\" --report-dir \"${CMAKE_BINARY_DIR}/quick\" --case-timeout ${ARG_CASE_TIMEOUT} --listing-cache \"\${listing}\")
    # Ordered by its measured seconds where CTest has them (seeded from ctest_config/test_costs.txt, as
    # a unit's are), else by its units' declared cost: declared costs count cases, and put the known-
    # bad parts, a few costly cases each, last (reduction.known_bad.quick: 9 cases, 5.4 s, started at
    # 4.5 s of a 10.9 s gpu-quick on an H200 at 6b0cdee, and ended it).
    kconform_cost_unless_measured(\"\${name}\" \${part_cost})
    set_tests_properties(\"\${name}\" PROPERTIES LABELS \"${quick_labels}\" RESOURCE_GROUPS \"1,gpus:${slots}\"
      SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE} TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT \"${environment}\")
  endforeach()
endif()
")
  endif()
  # Packs (KCONFORM_PACK_SECONDS, above): in the loop, a unit small enough is set aside (pack_check);
  # after it, the set-aside units are registered in packs (pack_block).
  set(pack_init "")
  set(pack_check "")
  set(pack_block "")
  if(KCONFORM_PACK_SECONDS GREATER 0 AND NOT ARG_RUN_SERIAL AND NOT ARG_EXCLUSIVE AND NOT labels MATCHES "(^|;)(huge|sanitizer|grading)(;|$)")
    math(EXPR pack_half "${KCONFORM_PACK_SECONDS} / 2")
    set(pack_init "
# Units set aside for packs, as <recorded seconds>:<unit>:<cost> (KCONFORM_PACK_SECONDS ${KCONFORM_PACK_SECONDS}).
set(pack_entries \"\")")
    set(pack_check "
  # A whole unit, not a Large one, recorded at no more than ${pack_half} s (half a pack; a fraction
  # rounded up): set aside for a pack.
  if(shards EQUAL 1 AND NOT unit STREQUAL \"Large\" AND NOT unit MATCHES \"[.]Large$\")
    string(REPLACE \".\" \"[.]\" pack_pattern \"${prefix}.\${unit}\")
    set(pack_seconds \"\")
    foreach(record IN LISTS recorded)
      if(record MATCHES \"^\${pack_pattern} [1-9][0-9]* ([0-9]+)([.][0-9]*)?\")
        set(pack_seconds \${CMAKE_MATCH_1})
        if(CMAKE_MATCH_2 MATCHES \"[1-9]\")
          math(EXPR pack_seconds \"\${pack_seconds} + 1\")
        endif()
      endif()
    endforeach()
    if(NOT pack_seconds STREQUAL \"\" AND NOT pack_seconds GREATER ${pack_half})
      list(APPEND pack_entries \"\${pack_seconds}:\${unit}:\${cost}\")
      continue()
    endif()
  endif()")
    set(pack_block "
# Packs: the units set aside above, longest first, each into the first pack with room for its recorded
# seconds (at most ${KCONFORM_PACK_SECONDS} a pack). A pack of two or more runs in one process
# (kconform_runner --units, every unit reported as ${prefix}.<unit>), named ${prefix}.pack<i>of<n> (no
# dot before <i>: not a shard of a unit), costed at its recorded seconds (plus the suite's priority,
# ${ARG_PRIORITY}), on the scale of the measured tests, with one case timeout more per unit more than one;
# a unit left alone in a pack gets its own test, exactly as without packs.
if(NOT pack_entries STREQUAL \"\")
  list(SORT pack_entries COMPARE NATURAL ORDER DESCENDING)
  set(packs 0)
  foreach(entry IN LISTS pack_entries)
    string(REGEX MATCH \"^([0-9]+):(.*):([0-9]+)$\" matched \"\${entry}\")
    set(seconds \${CMAKE_MATCH_1})
    set(unit \"\${CMAKE_MATCH_2}\")
    set(unit_cost \${CMAKE_MATCH_3})
    set(into \"\")
    if(packs GREATER 0)
      foreach(p RANGE 1 \${packs})
        math(EXPR room \"${KCONFORM_PACK_SECONDS} - \${pack_\${p}_seconds}\")
        if(NOT seconds GREATER room)
          set(into \${p})
          break()
        endif()
      endforeach()
    endif()
    if(into STREQUAL \"\")
      math(EXPR packs \"\${packs} + 1\")
      set(into \${packs})
      set(pack_\${into}_seconds 0)
      set(pack_\${into}_units \"\")
    endif()
    math(EXPR pack_\${into}_seconds \"\${pack_\${into}_seconds} + \${seconds}\")
    list(APPEND pack_\${into}_units \"\${unit}\")
    set(unit_cost_\${unit} \${unit_cost})
  endforeach()
  set(shared_packs 0)
  foreach(p RANGE 1 \${packs})
    list(LENGTH pack_\${p}_units in_pack)
    if(in_pack GREATER 1)
      math(EXPR shared_packs \"\${shared_packs} + 1\")
    endif()
  endforeach()
  set(shared_pack 0)
  foreach(p RANGE 1 \${packs})
    list(LENGTH pack_\${p}_units in_pack)
    if(in_pack EQUAL 1)
      set(unit \"\${pack_\${p}_units}\")
      kconform_add_unit_test(\"${prefix}.\${unit}\" \"\${unit}\" 1 1 \${unit_cost_\${unit}})
    else()
      math(EXPR shared_pack \"\${shared_pack} + 1\")
      set(name \"${prefix}.pack\${shared_pack}of\${shared_packs}\")
      string(REPLACE \";\" \",\" units_of_pack \"\${pack_\${p}_units}\")
      math(EXPR pack_cost \"\${pack_\${p}_seconds} + ${ARG_PRIORITY}\")
      math(EXPR timeout \"${ARG_TIMEOUT} + (\${in_pack} - 1) * ${ARG_CASE_TIMEOUT}\")
      kconform_add_runner_test(\"\${name}\" \${timeout} \${pack_cost} --units \"\${units_of_pack}\" --name-prefix \"${prefix}.\")
    endif()
  endforeach()
endif()")
  endif()
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${target}_units.cmake")
  file(GENERATE OUTPUT "${script}" CONTENT "# Generated by kconform_add_gpu_suite(${target}): one CTest test per unit.
set(runner \"$<TARGET_FILE:kconform_runner>\")
set(exe \"$<TARGET_FILE:${target}>\")
# The program's listing, recorded here for its units' runs (tools/runner: --listing-cache).
set(listing \"${CMAKE_CURRENT_BINARY_DIR}/${target}.listing\")
# A test's COST, unless CTest has measured it (its cost data, read into \${measured} below): a line
# \"<name> <runs> <seconds>\" with runs >= 1 and seconds within the timeout (CTest writes a test that did
# not pass as \"<name> 0 <its COST>\", and a build folder from before this rule may hold declared costs
# averaged in). CTest reads its cost data only for a test with no COST, so a measured test gets none.
function(kconform_cost_unless_measured name cost)
  string(REPLACE \".\" \"[.]\" pattern \"\${name}\")
  if(measured MATCHES \"\\n\${pattern} ([0-9]+) ([0-9.eE+-]+)\")
    if(CMAKE_MATCH_1 GREATER 0 AND CMAKE_MATCH_2 LESS_EQUAL ${ARG_TIMEOUT})
      return()
    endif()
  endif()
  set_tests_properties(\"\${name}\" PROPERTIES COST \${cost})
endfunction()
# A test of the runner over this program: its own process, one slot (or its GPU, or every GPU through
# the launcher, whose choice the caller has set: unit_launcher, unit_groups, unit_suffix), its cost
# unless measured; what it runs (a unit's shard, or a pack's units) follows the cost.
function(kconform_add_runner_test name timeout cost)
  add_test(\"\${name}\" ${launcher} \"\${runner}\" run --exe \"\${exe}\" --name \"\${name}${name_suffix}\" \${ARGN} --report-dir \"${CMAKE_BINARY_DIR}\" --case-timeout ${ARG_CASE_TIMEOUT} --listing-cache \"\${listing}\")
  kconform_cost_unless_measured(\"\${name}\" \${cost})
  set_tests_properties(\"\${name}\" PROPERTIES LABELS \"${labels}\" RESOURCE_GROUPS \"${groups},gpus:${slots}\"
    SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE} TIMEOUT \${timeout} ENVIRONMENT \"${environment}\" ${serial})
endfunction()
# A unit's test (or a shard's).
function(kconform_add_unit_test name unit shard shards cost)
  kconform_add_runner_test(\"\${name}\" ${ARG_TIMEOUT} \${cost} --unit \"\${unit}\" --shard \${shard}/\${shards})
endfunction()
execute_process(COMMAND \"\${runner}\" list --exe \"\${exe}\" --listing-cache \"\${listing}\" OUTPUT_VARIABLE units RESULT_VARIABLE status ERROR_VARIABLE errors TIMEOUT 120)
if(NOT status EQUAL 0 OR units STREQUAL \"\")
  # Listing failed (not built, or broken) or found no case: one test that fails and says why.
  add_test(${prefix}.listing \"\${runner}\" run --exe \"\${exe}\" --name ${prefix}.listing --report-dir \"${CMAKE_BINARY_DIR}\")
  set_tests_properties(${prefix}.listing PROPERTIES LABELS \"${labels}\" ${serial})${quick_listing_failed}
  return()
endif()
# Measured seconds beat the declared costs: a unit CTest has timed (its cost data, seeded at
# configure from ctest_config/test_costs.txt, then updated by every run) gets no COST property, since
# CTest reads its cost data only for tests without one; an unmeasured unit is ordered by its declared cost.
set(measured \"\")
if(EXISTS \"${CMAKE_BINARY_DIR}/Testing/Temporary/CTestCostData.txt\")
  file(READ \"${CMAKE_BINARY_DIR}/Testing/Temporary/CTestCostData.txt\" measured)
endif()
string(PREPEND measured \"\\n\")
# The recorded run's seconds of this suite's tests (KCONFORM_SECONDS_PER_SHARD): the checked-in file.
file(STRINGS \"${KCONFORM_RECORDED_COSTS}\" recorded REGEX \"^${prefix}[.]\")
string(REPLACE \"\\n\" \";\" units \"\${units}\")
# The units a quick run takes (all but the Large ones, a unit Large or <variant>.Large, whose cases are
# above its cost) and their declared cost, for gpu-quick's test at the end.
set(quick_units \"\")
set(quick_counts \"\")
set(quick_cost 0)${pack_init}
foreach(line IN LISTS units)
  if(line STREQUAL \"\")
    continue()
  endif()
  string(REPLACE \"\\t\" \";\" fields \"\${line}\")
  list(GET fields 0 unit)
  list(GET fields 2 cost)
  if(NOT unit STREQUAL \"Large\" AND NOT unit MATCHES \"[.]Large$\")
    list(APPEND quick_units \"\${unit}\")
    list(GET fields 1 quick_count)
    list(APPEND quick_counts \"\${quick_count}\")
    math(EXPR quick_cost \"\${quick_cost} + \${cost}\")
  endif()
  math(EXPR cost \"\${cost} + ${ARG_PRIORITY}\")
  list(GET fields 1 count)
  # A unit of many cases, or one recorded as slow, runs as several shards (contiguous slices), so no
  # one process is the run's tail (KCONFORM_CASES_PER_SHARD, KCONFORM_SECONDS_PER_SHARD).
  math(EXPR shards \"(\${count} + ${KCONFORM_CASES_PER_SHARD} - 1) / ${KCONFORM_CASES_PER_SHARD}\")
  if(${ARG_SECONDS_PER_SHARD} GREATER 0)
    string(REPLACE \".\" \"[.]\" unit_pattern \"${prefix}.\${unit}\")
    set(recorded_seconds 0)
    foreach(record IN LISTS recorded)
      # Runs >= 1: CTest writes a test that did not pass as \"<name> 0 <its COST>\", no seconds.
      if(record MATCHES \"^\${unit_pattern}([.][0-9]+of[0-9]+)? [1-9][0-9]* ([0-9]+)\")
        math(EXPR recorded_seconds \"\${recorded_seconds} + \${CMAKE_MATCH_2}\")
      endif()
    endforeach()
    math(EXPR by_time \"(\${recorded_seconds} + ${ARG_SECONDS_PER_SHARD} - 1) / ${ARG_SECONDS_PER_SHARD}\")
    if(by_time GREATER shards)
      set(shards \${by_time})
    endif()
  endif()
  if(shards GREATER count)
    set(shards \${count})
  endif()
  math(EXPR cost \"\${cost} / \${shards}\")${pack_check}${every_gpu_block}
  foreach(shard RANGE 1 \${shards})
    set(name \"${prefix}.\${unit}\")
    if(shards GREATER 1)
      string(APPEND name \".\${shard}of\${shards}\")
    endif()
    kconform_add_unit_test(\"\${name}\" \"\${unit}\" \${shard} \${shards} \${cost})
  endforeach()
endforeach()${pack_block}
${quick_block}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

# kconform_add_sanitizer_runs(<gtest target> FAMILY <family> FILTER <gtest filter>)
#
# One CTest test per compute-sanitizer tool, each running the small cases (FILTER) of a family's
# GPU suite through kconform_runner (a case that hangs or crashes under the tool costs that case;
# the rest resume). Any hazard the tool reports during a case fails that case, warnings included:
# racecheck reports the volatile-without-__syncwarp race of seed 000's K5 as a *warning*, so
# --error-exitcode alone would let it pass (see run_sanitizer.sh).
function(kconform_add_sanitizer_runs target)
  cmake_parse_arguments(ARG "" "FAMILY;FILTER" "" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY KCONFORM_SANITIZER_PROGRAMS ${target})  # scripts.sanitizer_exclusions reads them
  foreach(tool memcheck racecheck synccheck initcheck)
    set(name "sanitizer.${tool}.${ARG_FAMILY}")
    add_test(NAME ${name}
      COMMAND "${KCONFORM_SANITIZER_RUNNER}" ${tool} clean $<TARGET_FILE:kconform_runner> $<TARGET_FILE:${target}>
              "${ARG_FILTER}" ${name} "${CMAKE_BINARY_DIR}")
    set_tests_properties(${name} PROPERTIES
      LABELS "gpu;sanitizer;${ARG_FAMILY}"
      RESOURCE_GROUPS "gpus:1"
      SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
      ENVIRONMENT "${KCONFORM_SHARED_GPU_ENVIRONMENT}"
      TIMEOUT 900)
  endforeach()
endfunction()

# kconform_expect_sanitizer_hazards(<target> FAMILY <family> TOOLS <tool...>)
#
# The known-bad twin of the above. <target> is a program (kconform_test_executable, not discovered
# by CTest) with one case per registry row that a sanitizer must catch, named
# SanitizerCatches/RunsUnder<Tool>.Row/<row>. One CTest test per tool runs each of that tool's cases
# in a process of its own (kconform_runner --isolate) and passes only if the tool reports a hazard
# in every one; the rows come from the registry, so CMake names tools, never rows. A tool with no
# row reports itself skipped.
function(kconform_expect_sanitizer_hazards target)
  cmake_parse_arguments(ARG "" "FAMILY" "TOOLS" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY KCONFORM_SANITIZER_PROGRAMS ${target})
  foreach(tool IN LISTS ARG_TOOLS)
    string(SUBSTRING "${tool}" 0 1 first)
    string(SUBSTRING "${tool}" 1 -1 rest)
    string(TOUPPER "${first}" first)
    set(name "sanitizer.${tool}.${ARG_FAMILY}.catches")
    add_test(NAME ${name}
      COMMAND "${KCONFORM_SANITIZER_RUNNER}" ${tool} expect-hazard $<TARGET_FILE:kconform_runner> $<TARGET_FILE:${target}>
              "SanitizerCatches/RunsUnder${first}${rest}.*" ${name} "${CMAKE_BINARY_DIR}")
    set_tests_properties(${name} PROPERTIES
      LABELS "gpu;sanitizer;known_bad;${ARG_FAMILY}"
      RESOURCE_GROUPS "gpus:1"
      SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
      ENVIRONMENT "${KCONFORM_SHARED_GPU_ENVIRONMENT}"
      TIMEOUT 600)
  endforeach()
endfunction()

# kconform_add_benchmark(<target> FAMILY <family> SOURCES <src...> [LIBRARIES <lib...>] [COMMAND <cmd...>])
# Benchmarks report; they never assert on time. They run alone (RUN_SERIAL) so that concurrent
# tests do not share the GPU with them, and write their tables to KCONFORM_REPORT_DIR if set.
# COMMAND replaces the plain run of the target (a wrapper that collects counters first).
function(kconform_add_benchmark target)
  cmake_parse_arguments(ARG "" "FAMILY" "SOURCES;LIBRARIES;COMMAND" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE kconform::fixtures ${ARG_LIBRARIES})
  target_compile_features(${target} PRIVATE cxx_std_20)
  if(NOT ARG_COMMAND)
    set(ARG_COMMAND ${target})
  endif()
  add_test(NAME benchmark.${ARG_FAMILY} COMMAND ${ARG_COMMAND})
  if(KCONFORM_ALONE_PER_GPU)
    set(alone RESOURCE_GROUPS "gpus:${KCONFORM_GPU_SLOTS}")  # its GPU to itself
  else()
    set(alone RUN_SERIAL TRUE RESOURCE_GROUPS "gpus:1")  # the machine to itself: one slot names its GPU
  endif()
  set_tests_properties(benchmark.${ARG_FAMILY} PROPERTIES
    LABELS "gpu;benchmark;alone;${ARG_FAMILY}"
    ${alone}
    SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
    TIMEOUT 900)
endfunction()

# The four checks below list this build's tests with a nested ctest, which runs every GoogleTest
# program's discovery (DISCOVERY_MODE PRE_TEST), and discovery writes each program's listing to one
# JSON file per program: two nested listings at once can read each other's half-written file
# ("string sub-command JSON failed parsing", labels.gpu_run_phases on the H100 at a7d31ac, once 8 GPU
# slots started them together). RESOURCE_LOCK: one at a time.
set(KCONFORM_LISTING_LOCK "nested_ctest_listing")

# Every CTest name is stable and readable (no printed parameter bytes): checked on every machine.
add_test(NAME names.stable COMMAND "${CMAKE_CURRENT_LIST_DIR}/check_test_names.sh" "${CMAKE_BINARY_DIR}")
set_tests_properties(names.stable PROPERTIES LABELS "cpu;fixtures" TIMEOUT 120 RESOURCE_LOCK ${KCONFORM_LISTING_LOCK})

# The GPU run's two phases (presets gpu-shared, gpu-alone) split the gpu preset's tests exactly, and
# label alone is exactly on the RUN_SERIAL tests: checked everywhere, on this build's tests.
add_test(NAME labels.gpu_run_phases
  COMMAND "${CMAKE_COMMAND}" -DBUILD_DIR=${CMAKE_BINARY_DIR} -DPRESETS=${PROJECT_SOURCE_DIR}/CMakePresets.json
          -DPER_GPU=${KCONFORM_ALONE_PER_GPU} -DSLOTS=${KCONFORM_GPU_SLOTS}
          -P "${CMAKE_CURRENT_LIST_DIR}/check_gpu_run_phases.cmake")
set_tests_properties(labels.gpu_run_phases PROPERTIES LABELS "cpu;fixtures" TIMEOUT 180 RESOURCE_LOCK ${KCONFORM_LISTING_LOCK})

# gpu-quick's tests (label quick: a program's quick units in one process) run exactly the units the
# per-unit tests would, under the same report names, and the presets keep them out of the full run.
add_test(NAME labels.quick_tests
  COMMAND "${CMAKE_CURRENT_LIST_DIR}/check_quick_tests.sh" "${CMAKE_BINARY_DIR}" "${PROJECT_SOURCE_DIR}/CMakePresets.json")
set_tests_properties(labels.quick_tests PROPERTIES LABELS "cpu;fixtures" TIMEOUT 180 RESOURCE_LOCK ${KCONFORM_LISTING_LOCK})

# The measured seconds that order a fresh build's run (ctest_config/test_costs.txt) are in CTest's
# format and name this build's tests, and no unit they record as slow is registered whole.
add_test(NAME labels.test_costs
  COMMAND "${CMAKE_COMMAND}" -DBUILD_DIR=${CMAKE_BINARY_DIR} -DCOSTS=${PROJECT_SOURCE_DIR}/ctest_config/test_costs.txt
          -DSECONDS_PER_SHARD=${KCONFORM_SECONDS_PER_SHARD} -P "${CMAKE_CURRENT_LIST_DIR}/check_test_costs.cmake")
set_tests_properties(labels.test_costs PROPERTIES LABELS "cpu;fixtures" TIMEOUT 120 RESOURCE_LOCK ${KCONFORM_LISTING_LOCK})

# kconform_add_profile_checks(<name> FAMILY <family> CHECKS <checks file> PROGRAM <program>)
#
# Hardware-counter assertions (label profile): each line of CHECKS names a metric, its range, a
# kernel and the PROGRAM arguments of one launch; one Nsight Compute run of PROGRAM with every line's
# arguments checks each launch's metric (check_ncu_metric.sh, which skips where ncu, the GPU or
# counter permission is missing). Alone on the GPU: ncu serialises the kernels and replays them, and
# other processes' kernels would share the counters' SMs.
set(KCONFORM_NCU_CHECK "${CMAKE_CURRENT_LIST_DIR}/check_ncu_metric.sh")
function(kconform_add_profile_checks name)
  cmake_parse_arguments(ARG "" "FAMILY;CHECKS;PROGRAM" "" ${ARGN})
  add_test(NAME ${name} COMMAND "${KCONFORM_NCU_CHECK}" "${ARG_CHECKS}" "${ARG_PROGRAM}")
  set(alone RESOURCE_GROUPS "gpus:${KCONFORM_GPU_SLOTS}")
  if(NOT KCONFORM_ALONE_PER_GPU)
    list(APPEND alone RUN_SERIAL TRUE)
  endif()
  set_tests_properties(${name} PROPERTIES
    LABELS "gpu;profile;alone;${ARG_FAMILY}"
    ${alone}
    SKIP_RETURN_CODE ${KCONFORM_SKIP_RETURN_CODE}
    TIMEOUT 300)
endfunction()
