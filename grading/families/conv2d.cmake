# PolyBench Conv2D 3×3 in double (KERNELS.md §5–§6, seed 004): contract kconform_conv2d_submission.h.
kconform_grading_program(conv2d SOURCES conv2d_grading_test.cpp conv2d_submission.cpp
  LIBRARIES kconform::polybench_conv2d kconform_polybench_conv2d_test_support)
