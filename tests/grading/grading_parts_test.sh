#!/usr/bin/env bash
# grading_parts_test.sh <repository root> <build dir>
#
# The grading preset's four parts (ctest_config/grading_parts.sh, scripts/run_grading_suite.sh --part k)
# run every test of the preset exactly once: none left out, none in two parts, the first three each
# the tests their comment names (a renamed test would fall into part 4 and make it the long one).
# Listed with `ctest -N` in this build, where the GPU tests are registered too. Exit: 0 or 1.
set -uo pipefail
root=$1 build=$2
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
# shellcheck source=../../ctest_config/grading_parts.sh
. "$root/ctest_config/grading_parts.sh"
# The preset's tests (its filter: labels matching the regex grading, as here) and a part's, one name a
# line, sorted.
listed() { ctest --test-dir "$build" -N -L grading "$@" | sed -n 's/^ *Test *#[0-9]*: //p' | sort; }
all=$(listed)
[ "$(echo "$all" | grep -c .)" -ge 10 ] || fail "the preset lists $(echo "$all" | grep -c .) tests in $build: not a configured build?"
parts=''
for k in 1 2 3 4; do
  grading_part_args $k || { fail "part $k is not defined"; continue; }
  part=$(listed "${grading_part[@]}")
  [ -n "$part" ] || fail "part $k selects no test"
  printf '%s\n' "$part" >"$build/grading-part-$k.txt"
  parts+="$part"$'\n'
done
grading_part_args 5 && fail "part 5 is accepted"
twice=$(printf '%s' "$parts" | grep . | sort | uniq -d)
[ -z "$twice" ] || fail "in two parts: $(echo $twice)"
missing=$(comm -23 <(echo "$all") <(printf '%s' "$parts" | grep . | sort -u))
[ -z "$missing" ] || fail "in no part: $(echo $missing)"
expect_part() {  # expect_part <k> <names...>
  local k=$1
  shift
  [ "$(cat "$build/grading-part-$k.txt" | paste -sd' ' -)" = "$(printf '%s\n' "$@" | sort | paste -sd' ' -)" ] ||
    fail "part $k is [$(paste -sd' ' "$build/grading-part-$k.txt")], expected [$*]"
}
expect_part 1 grading.class_of_30 grading.examples.gpu.access grading.examples.gpu.atax grading.examples.gpu.conv2d \
  grading.examples.gpu.covariance grading.examples.gpu.divergence grading.examples.gpu.occupancy
expect_part 2 grading.neighbours.every_group
expect_part 3 grading.examples.gpu.matmul grading.neighbours
grep -qx 'grading.examples.gpu.reduction' "$build/grading-part-4.txt" || fail "reduction's examples are not in part 4"
# run_grading_suite.sh refuses a part that is not one, before it builds anything.
"$root/scripts/run_grading_suite.sh" "$build/grading-parts-bad" --part 5 >"$build/grading-parts-bad.log" 2>&1
status=$?
[ $status -eq 2 ] && grep -q -- '--part takes 1, 2, 3 or 4' "$build/grading-parts-bad.log" ||
  fail "run_grading_suite.sh --part 5: exit $status, expected 2 saying so"
"$root/scripts/run_grading_suite.sh" --part 1 >"$build/grading-parts-no-out.log" 2>&1
status=$?
[ $status -eq 2 ] && grep -q 'the first argument is the out dir' "$build/grading-parts-no-out.log" ||
  fail "run_grading_suite.sh --part 1 (no out dir): exit $status, expected 2 saying so"
[ $failures -eq 0 ] && echo "PASSED: 4 parts, $(echo "$all" | grep -c .) tests, each in exactly one"
[ $failures -eq 0 ]
