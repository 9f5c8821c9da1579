# Warp divergence (KERNELS.md §4 and §6, seed 003's DV1/DV2): contract kconform_divergence_submission.h.
kconform_grading_program(divergence SOURCES divergence_grading_test.cpp divergence_submission.cpp
  LIBRARIES kconform::access kconform_access_test_support)
