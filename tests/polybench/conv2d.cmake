# PolyBench Conv2D 3×3 (KERNELS.md §5, seed 004): included from tests/CMakeLists.txt (paths relative
# to tests/). Targets and the FAMILY label start with polybench_conv2d, so CTest names
# (polybench_conv2d.conformance.Conv2dDirect, sanitizer.racecheck.polybench_conv2d) and labels stay
# apart from the other PolyBench kernels'.
add_library(kconform_polybench_conv2d_test_support STATIC
  polybench/conv2d_cases.cpp
  polybench/conv2d_checks.cpp)
target_link_libraries(kconform_polybench_conv2d_test_support
  PUBLIC kconform::polybench_conv2d kconform::reference_polybench kconform::fixtures GTest::gtest)

kconform_add_gtest(polybench_conv2d_cpu_tests FAMILY polybench_conv2d
  SOURCES polybench/conv2d_cpu_test.cpp
  LIBRARIES kconform_polybench_conv2d_test_support)
# Units: Conv2dDirect and Conv2dSharedTile (160 cases each: 16 sizes x 2 inputs x 5 blocks), and their
# .Large units (the 10 cases at 4096² each).
kconform_add_gpu_suite(polybench_conv2d_gpu_tests FAMILY polybench_conv2d KIND conformance LABELS correctness polybench
  SOURCES polybench/conv2d_conformance_test.cpp
  LIBRARIES kconform_polybench_conv2d_test_support)
# PRIORITY: a known-bad case walks its row's sweep until the suite rejects it; CTest starts these
# early so none trails the run (every row here is caught within the first 9 sizes, all small).
kconform_add_gpu_suite(polybench_conv2d_known_bad_tests FAMILY polybench_conv2d KIND known_bad LABELS polybench
  TIMEOUT 600 PRIORITY 100000
  SOURCES polybench/conv2d_known_bad_test.cpp
  LIBRARIES kconform_polybench_conv2d_test_support)

# compute-sanitizer over the small cases on exact-size buffers: both correct variants, every swept
# configuration, both inputs, at 33 x 65 (partial blocks in both dimensions, halo loads of every
# edge block), 3 x 3 (one interior point) and 2 x 1000 (no interior: nothing may be written).
kconform_add_sanitizer_runs(polybench_conv2d_gpu_tests FAMILY polybench_conv2d
  FILTER "PolybenchConv2d/Conformance.MatchesReference/*Ni33Nj65B*:PolybenchConv2d/Conformance.MatchesReference/*Ni3Nj3B*:PolybenchConv2d/Conformance.MatchesReference/*Ni2Nj1000B*")
# The rows only a sanitizer sees (Conv2dSharedTileNoSync: racecheck) must each be caught.
kconform_test_executable(polybench_conv2d_sanitizer_targets
  SOURCES polybench/conv2d_sanitizer_targets.cpp
  LIBRARIES kconform_polybench_conv2d_test_support)
kconform_expect_sanitizer_hazards(polybench_conv2d_sanitizer_targets FAMILY polybench_conv2d TOOLS racecheck)
