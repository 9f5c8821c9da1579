# PolyBench covariance in double (KERNELS.md §5–§6, seed 004): contract kconform_covariance_submission.h.
kconform_grading_program(covariance SOURCES covariance_grading_test.cpp covariance_submission.cpp
  LIBRARIES kconform::polybench_covariance kconform_polybench_covariance_test_support)
