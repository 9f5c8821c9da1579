# Access patterns (KERNELS.md §4 and §6, seed 003: AC1 coalesced, AC2 random, AC3 grouped):
# contract kconform_access_submission.h.
kconform_grading_program(access SOURCES access_grading_test.cpp access_submission.cpp
  LIBRARIES kconform::access kconform_access_test_support)
