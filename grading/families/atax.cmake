# PolyBench ATAX in double (KERNELS.md §5–§6, seed 004): contract kconform_atax_submission.h.
kconform_grading_program(atax SOURCES atax_grading_test.cpp atax_submission.cpp
  LIBRARIES kconform::polybench_atax kconform_polybench_atax_test_support)
