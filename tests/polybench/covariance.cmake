# PolyBench covariance (KERNELS.md §5 and §6, seed 004 Άσκηση 3): included from tests/CMakeLists.txt
# (paths relative to tests/). Targets and the FAMILY label start with polybench_covariance, so CTest
# names (polybench_covariance.conformance.CovarianceMultiKernel, sanitizer.memcheck.polybench_covariance)
# and labels stay apart from the other PolyBench kernels'.
add_library(kconform_polybench_covariance_test_support STATIC
  polybench/covariance_cases.cpp
  polybench/covariance_checks.cpp)
target_link_libraries(kconform_polybench_covariance_test_support
  PUBLIC kconform::polybench_covariance kconform::reference_polybench kconform::fixtures GTest::gtest
  PRIVATE OpenMP::OpenMP_CXX)

kconform_add_gtest(polybench_covariance_cpu_tests FAMILY polybench_covariance
  SOURCES polybench/covariance_cpu_test.cpp
  LIBRARIES kconform_polybench_covariance_test_support)
# Units: CovarianceMultiKernel (162 cases: 10 sizes x their inputs x 2 FLOAT_N x 3 configurations) and
# CovarianceCublas (54), and one Large unit for both (the seed's 1024² and 2048²: 36 + 12 cases). The
# CPU reference there is m(m+1)/2·n long double multiply-adds per (size, input, FLOAT_N), 6 per size:
# measured 1.5 s (1024²) and ~10 s (2048²) of one core on the 2-core build machine, ~30 s in all on a
# GPU process's 4 OpenMP threads in an H100 run; in one unit each is computed once for both variants.
kconform_add_gpu_suite(polybench_covariance_gpu_tests FAMILY polybench_covariance KIND conformance LABELS correctness polybench
  SOURCES polybench/covariance_conformance_test.cpp
  LIBRARIES kconform_polybench_covariance_test_support)
# PRIORITY: a known-bad case walks its row's sweep until the suite rejects it; CTest starts these
# early so none trails the run (every row is caught within the first five sizes; the FLOAT_N tests
# beside them run four cases each at the seed's 1024²).
kconform_add_gpu_suite(polybench_covariance_known_bad_tests FAMILY polybench_covariance KIND known_bad LABELS polybench
  TIMEOUT 600 PRIORITY 100000
  SOURCES polybench/covariance_known_bad_test.cpp
  LIBRARIES kconform_polybench_covariance_test_support)

# compute-sanitizer over the small cases on exact-size buffers: both correct variants, every swept
# configuration, every input and both FLOAT_N settings, at 3 x 3 (blocks far larger than the data),
# 33 x 65 and 65 x 33 (partial tiles and blocks both ways round; n != m, so a swapped dimension reads
# or writes out of bounds). No covariance known-bad row needs a sanitizer to be caught (the fused
# kernel's stray writes hit the guards at 1 x 1), so there is no kconform_expect_sanitizer_hazards target.
kconform_add_sanitizer_runs(polybench_covariance_gpu_tests FAMILY polybench_covariance
  FILTER "PolybenchCovariance/Conformance.MatchesReference/*N3M3*:PolybenchCovariance/Conformance.MatchesReference/*N33M65*:PolybenchCovariance/Conformance.MatchesReference/*N65M33*")

# The benchmark's CPU baselines (reference/polybench/double_loops.*) against the three references.
kconform_add_gtest(polybench_double_loops_cpu_tests FAMILY polybench
  SOURCES polybench/double_loops_cpu_test.cpp
  LIBRARIES kconform::reference_polybench kconform::fixtures)
