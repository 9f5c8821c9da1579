# Sourced (bash): the grading preset (`ctest --preset grading`) in four parts, one device call each,
# that together run every test of it exactly once (checked on every machine by grading.parts.cpu).
# The whole preset takes about 20 minutes of tests on one H100, and one device call may run 10.
#   grading_part_args <k>   sets the array grading_part to the ctest arguments of part k (1-4);
#                           returns 1 for any other k.
# Last measured on one H100 (docs/grading.md, "Session of 2026-11-28 (fourth)", 2fa5841), seconds of
# tests, all passing:
#   1: the six seed-003/004 families' examples (20-27 each) and the class of 30 (170): 311
#   2: grading.neighbours.every_group: 318 (254-362 in earlier sessions)
#   3: grading.neighbours (166) and matmul's examples (113): 279
#   4: everything else: reduction's examples (153) and the 124 grading CPU tests: 219
# Each part's first call on a fresh machine adds the build (50-72 s).
grading_part_args() {
  local p1='^grading\.(examples\.gpu\.(atax|conv2d|occupancy|covariance|divergence|access)|class_of_30)$'
  local p2='^grading\.neighbours\.every_group$'
  local p3='^grading\.(neighbours|examples\.gpu\.matmul)$'
  case "$1" in
    1) grading_part=(-R "$p1") ;;
    2) grading_part=(-R "$p2") ;;
    3) grading_part=(-R "$p3") ;;
    4) grading_part=(-E "$p1|$p2|$p3") ;;
    *) return 1 ;;
  esac
}
