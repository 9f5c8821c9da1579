# Matrix multiplication (KERNELS.md §3, seed 002): contract kconform_matmul_submission.h.
kconform_grading_program(matmul SOURCES matmul_grading_test.cpp matmul_submission.cpp
  LIBRARIES kconform::matmul kconform_matmul_test_support)
