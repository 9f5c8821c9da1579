# Occupancy (KERNELS.md §4 and §6, seed 003's S1/S2 vector add and the occupancy question): contract
# kconform_occupancy_submission.h.
kconform_grading_program(occupancy SOURCES occupancy_grading_test.cpp occupancy_submission.cpp
  LIBRARIES kconform::access kconform_access_test_support)
