# PolyBench ATAX tests (KERNELS.md §5, seed 004 Άσκηση 2): included from tests/CMakeLists.txt.
add_library(kconform_polybench_atax_test_support STATIC
  polybench/atax_cases.cpp
  polybench/atax_checks.cpp)
target_link_libraries(kconform_polybench_atax_test_support
  PUBLIC kconform::polybench_atax kconform::fixtures kconform::reference_polybench GTest::gtest)

kconform_add_gtest(polybench_atax_cpu_tests FAMILY polybench_atax
  SOURCES polybench/atax_cpu_test.cpp
  LIBRARIES kconform_polybench_atax_test_support OpenMP::OpenMP_CXX)
kconform_add_gpu_suite(polybench_atax_gpu_tests FAMILY polybench_atax KIND conformance LABELS correctness
  SOURCES polybench/atax_conformance_test.cpp
  LIBRARIES kconform_polybench_atax_test_support)
# PRIORITY: a known-bad case walks its row's sweep until the suite rejects it; CTest starts these early.
kconform_add_gpu_suite(polybench_atax_known_bad_tests FAMILY polybench_atax KIND known_bad TIMEOUT 600 PRIORITY 100000
  SOURCES polybench/atax_known_bad_test.cpp
  LIBRARIES kconform_polybench_atax_test_support)
# The seed's cross-block race on tmp, seen when the grid runs in waves (KCONFORM_FREE_SMS=1). Alone on
# the machine: other processes' kernels time-slice the GPU and change the schedule under test.
kconform_add_gpu_suite(polybench_atax_schedule_tests FAMILY polybench_atax KIND schedule EXCLUSIVE RUN_SERIAL TIMEOUT 300
  SOURCES polybench/atax_schedule_test.cpp
  LIBRARIES kconform_polybench_atax_test_support)

# compute-sanitizer over the small cases on exact-size buffers: every correct variant, every swept
# block, both inputs, at 3 x 3 (blocks far larger than the matrix), 33 x 65 and 65 x 33 (partial
# blocks and chunks both ways round; nx != ny, so a swapped dimension reads or writes out of bounds).
# No ATAX known-bad row needs a sanitizer to be caught (the guards' NaN canary shows the fused
# kernel's reads past A and tmp), so there is no kconform_expect_sanitizer_hazards target.
kconform_add_sanitizer_runs(polybench_atax_gpu_tests FAMILY polybench_atax
  FILTER "PolybenchAtax/Conformance.MatchesReference/*Nx3Ny3*:PolybenchAtax/Conformance.MatchesReference/*Nx33Ny65*:PolybenchAtax/Conformance.MatchesReference/*Nx65Ny33*")
