# Reduction (KERNELS.md §1–2, seeds 000/001): contract kconform_reduction_submission.h.
kconform_grading_program(reduction SOURCES reduction_grading_test.cpp reduction_submission.cpp
  LIBRARIES kconform::reduction kconform_reduction_test_support)
