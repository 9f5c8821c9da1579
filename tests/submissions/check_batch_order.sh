#!/usr/bin/env bash
# The order and threads of a grading batch's CTest project (scripts/grade.sh; issue 33): longest first,
# so that no long unit is the batch's tail and the performance units, which need every slot of a GPU,
# are not held back behind a few stragglers. In the project grade.sh writes for one submission:
#   - per-student: the shared value process before the sanitizer units, and both before the
#     performance unit;
#   - per-group: every value unit and sanitizer unit before the performance unit;
#   - per-group: the sanitizer units before the value units;
#   - the performance unit asks for every slot of a GPU (KCONFORM_GRADING_SLOTS_PER_GPU, 6 here) and
#     has the host's cores for its OpenMP threads (no GPU found: one); every other unit shares the GPU
#     (one slot) with 4;
#   - no failing case's data dump in any test (KCONFORM_FAILURE_DUMPS=off), except in a replay of named
#     cases (--only), whose tests write them;
#   - --performance-overlap N: the performance unit on ceil(slots/N) slots, with the batch's GPU hold
#     folder, after a barrier test that waits for every other unit; without it, neither; N above the
#     slots refused.
#   - --tool T (a replay of a tool finding): T's sanitizer test alone, carrying --only's filter; --only
#     without it runs no tool; an unknown tool refused.
#   - --only runs the performance unit only where its filter names the timed case.
# CPU only: nvidia-smi is faked to find no GPU, so grade.sh writes the project and stops before running it.
#   check_batch_order.sh <work dir>
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:?usage: check_batch_order.sh <work dir>}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
rm -rf "$work" && mkdir -p "$work/bin" || { echo "FAIL: cannot make $work"; exit 1; }
printf '#!/bin/sh\nexit 9\n' >"$work/bin/nvidia-smi" && chmod +x "$work/bin/nvidia-smi"

# The project's tests as "<name> <cost> <resources> <OMP threads>", one a line.
tests_of() {
  awk '
    /^add_test\("/ { split($0, q, "\""); name = q[2] }
    /^set_tests_properties\(".*RESOURCE_GROUPS/ {
      split($0, q, "\""); name = q[2]
      match($0, /RESOURCE_GROUPS "[^"]*"/); resources = substr($0, RSTART + 17, RLENGTH - 18)
      match($0, /COST [0-9]+/); cost = substr($0, RSTART + 5, RLENGTH - 5)
      getline env
      match(env, /OMP_NUM_THREADS=[0-9]+/); threads = substr(env, RSTART + 16, RLENGTH - 16)
      print name, cost, resources, threads
    }' "$1"
}

for processes in per-student per-group; do
  out="$work/$processes"
  PATH="$work/bin:$PATH" KCONFORM_GRADING_SLOTS_PER_GPU=6 "$root/scripts/grade.sh" --family reduction --processes "$processes" --seed 1 \
    --submission "$root/tests/submissions/reduction/correct.cu" --out "$out" >"$work/$processes.log" 2>&1
  project="$out/ctest/CTestTestfile.cmake"
  [ -f "$project" ] || { fail "$processes: grade.sh wrote no project ($work/$processes.log)"; tail -5 "$work/$processes.log"; continue; }
  tests_of "$project" >"$work/$processes.tests"
  [ "$(wc -l <"$work/$processes.tests")" -ge 5 ] || { fail "$processes: too few tests read:"; cat "$work/$processes.tests"; continue; }
  perf_cost=$(awk '$1 ~ /\.performance$/ { print $2 }' "$work/$processes.tests")
  [ -n "$perf_cost" ] || { fail "$processes: no performance unit"; continue; }
  awk -v p="$perf_cost" '$1 !~ /\.performance$/ && ($2 == "" || $2 + 0 <= p + 0) { print }' "$work/$processes.tests" |
    while read -r line; do echo "FAIL: $processes: not before the performance unit (cost $perf_cost): $line"; done |
    tee "$work/$processes.late" | head -5
  [ -s "$work/$processes.late" ] && failures=$((failures + 1))
  # Resources and threads.
  awk -v cores="$(nproc)" '
    $1 ~ /\.performance$/ && ($3 != "gpus:6" || $4 != cores) { print "performance: " $0 }
    $1 !~ /\.performance$/ && ($3 != "gpus:1" || $4 != 4) { print "shared: " $0 }' "$work/$processes.tests" >"$work/$processes.bad"
  [ -s "$work/$processes.bad" ] && fail "$processes: resources or threads: $(cat "$work/$processes.bad")"
done
if [ -f "$work/per-student.tests" ]; then
  values=$(awk '$1 ~ /\.values$/ { print $2 }' "$work/per-student.tests")
  lowest_tool=$(awk '$1 ~ /\.sanitizer\./ { print $2 }' "$work/per-student.tests" | sort -n | head -1)
  [ -n "$values" ] && [ -n "$lowest_tool" ] && [ "$values" -gt "$lowest_tool" ] ||
    fail "per-student: the shared value process (cost ${values:-none}) does not start before the sanitizer units (${lowest_tool:-none})"
fi
if [ -f "$work/per-group.tests" ]; then
  highest_value=$(awk '$1 !~ /\.(performance|sanitizer\.[a-z]+)$/ { print $2 }' "$work/per-group.tests" | sort -n | tail -1)
  lowest_tool=$(awk '$1 ~ /\.sanitizer\./ { print $2 }' "$work/per-group.tests" | sort -n | head -1)
  [ -n "$highest_value" ] && [ -n "$lowest_tool" ] && [ "$lowest_tool" -gt "$highest_value" ] ||
    fail "per-group: the sanitizer units (cost ${lowest_tool:-none}) do not start before the value units (${highest_value:-none})"
fi
# Failure dumps: off in every test of a batch (both ways of spreading a student's groups), on in a
# replay (--only).
for processes in per-student per-group; do
  project="$work/$processes/ctest/CTestTestfile.cmake"
  [ -f "$project" ] || continue  # already failed above
  environments=$(grep -A1 '^set_tests_properties' "$project" | grep -c ENVIRONMENT)
  without=$(grep -A1 '^set_tests_properties' "$project" | grep ENVIRONMENT | grep -vc 'KCONFORM_FAILURE_DUMPS=off')
  [ "$environments" -ge 5 ] || fail "$processes: read $environments test environment(s), expected at least 5"
  [ "$without" = 0 ] || fail "$processes: $without test(s) would write failure dumps (no KCONFORM_FAILURE_DUMPS=off)"
done
# --performance-overlap 4 (6 slots): each performance unit asks for ceil(6/4) = 2 slots (at most 4 a
# GPU; 6/4 rounded down would let 6 in), keeps the host's cores for its threads (its OpenMP work is
# inside its hold), holds its GPU in the batch's hold folder, and waits for a barrier that waits for
# every other unit of the batch; by default (above) none of that: no barrier, no hold folder.
for processes in per-student per-group; do
  project="$work/$processes/ctest/CTestTestfile.cmake"
  [ -f "$project" ] || continue
  ! grep -q 'performance_barrier\|KCONFORM_PERFORMANCE_HOLD_DIR' "$project" ||
    fail "$processes: a barrier or a hold without --performance-overlap"
done
PATH="$work/bin:$PATH" KCONFORM_GRADING_SLOTS_PER_GPU=6 "$root/scripts/grade.sh" --family reduction --seed 1 \
  --performance-overlap 4 --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/overlap" >"$work/overlap.log" 2>&1
project="$work/overlap/ctest/CTestTestfile.cmake"
if [ ! -f "$project" ]; then
  fail "--performance-overlap 4: grade.sh wrote no project ($work/overlap.log)"
else
  tests_of "$project" >"$work/overlap.tests"
  awk -v cores="$(nproc)" '$1 ~ /\.performance$/ && ($3 != "gpus:2" || $4 != cores) { print }' "$work/overlap.tests" | grep -q . &&
    fail "--performance-overlap 4 of 6 slots: a performance unit not on 2 slots: $(grep performance "$work/overlap.tests")"
  perf=$(awk '$1 ~ /\.performance$/ { print $1 }' "$work/overlap.tests")
  others=$(awk '$1 !~ /\.performance$/ { print $1 }' "$work/overlap.tests" | sort)
  [ -n "$perf" ] && [ -n "$others" ] || fail "--performance-overlap 4: no performance unit or no other unit read"
  grep -A1 "^set_tests_properties(\"$perf\" PROPERTIES RESOURCE" "$project" |
    grep -q "KCONFORM_PERFORMANCE_HOLD_DIR=$work/overlap/ctest/gpu-holds;KCONFORM_GPU_HOLD_WAIT_S=1500" ||
    fail "--performance-overlap 4: the performance unit has no hold folder or wait limit"
  grep -q "^set_tests_properties(\"$perf\" PROPERTIES DEPENDS \"kconform.performance_barrier\")" "$project" ||
    fail "--performance-overlap 4: the performance unit does not wait for the barrier"
  barrier=$(sed -n 's/^set_tests_properties("kconform.performance_barrier" PROPERTIES COST 0 DEPENDS "\(.*\)")$/\1/p' "$project" | tr ';' '\n' | sort)
  [ "$barrier" = "$others" ] || fail "--performance-overlap 4: the barrier waits for [$(echo $barrier)], not every other unit [$(echo $others)]"
  [ -d "$work/overlap/ctest/gpu-holds" ] || fail "--performance-overlap 4: no hold folder made"
fi
# More units at once than a GPU has slots is refused, before any grading.
PATH="$work/bin:$PATH" KCONFORM_GRADING_SLOTS_PER_GPU=6 "$root/scripts/grade.sh" --family reduction --seed 1 \
  --performance-overlap 7 --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/overlap7" >"$work/overlap7.log" 2>&1
status=$?
[ $status -eq 2 ] && grep -q "more than the 6 slots" "$work/overlap7.log" ||
  fail "--performance-overlap 7 of 6 slots: exit $status, expected 2 saying so: $(tail -1 "$work/overlap7.log")"
PATH="$work/bin:$PATH" "$root/scripts/grade.sh" --family reduction --seed 1 --only 'Grade/*' \
  --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/replay" >"$work/replay.log" 2>&1
replay="$work/replay/ctest/CTestTestfile.cmake"
if [ ! -f "$replay" ]; then
  fail "--only: grade.sh wrote no project ($work/replay.log)"
elif grep -q 'KCONFORM_FAILURE_DUMPS' "$replay" || ! grep -q 'KCONFORM_GTEST_FILTER=Grade/\*' "$replay"; then
  fail "--only: a replay's tests must write failure dumps and carry the filter: $(grep ENVIRONMENT "$replay" | head -2)"
fi
# A replay of a tool finding (--tool, a report's replay command for a sanitizer unit): that tool's
# test alone, narrowed by --only where given; --only alone runs no tool; an unknown tool is refused.
tests_named() { sed -n 's/^add_test("\([^"]*\)".*/\1/p' "$1" | sed 's/^[^.]*\.//' | sort | paste -sd' ' -; }
PATH="$work/bin:$PATH" "$root/scripts/grade.sh" --family reduction --seed 1 --tool memcheck --only 'Grade/*' \
  --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/tool" >"$work/tool.log" 2>&1
project="$work/tool/ctest/CTestTestfile.cmake"
if [ ! -f "$project" ]; then
  fail "--tool memcheck: grade.sh wrote no project ($work/tool.log)"
else
  [ "$(tests_named "$project")" = "sanitizer.memcheck" ] || fail "--tool memcheck: tests [$(tests_named "$project")], expected memcheck's alone"
  grep -q 'KCONFORM_GTEST_FILTER=Grade/\*' "$project" || fail "--tool memcheck --only: the tool's test does not carry the filter"
fi
[ -f "$replay" ] && case " $(tests_named "$replay") " in *sanitizer*) fail "--only without --tool ran a sanitizer: $(tests_named "$replay")" ;; esac
# A replay runs the units that hold a case its filter names: the performance unit where it names the
# timed case ('Grade/*' does), the values where it names a value case, and nothing else (a unit with
# no case selected fails as one that checks nothing).
[ -f "$replay" ] && case " $(tests_named "$replay") " in *" performance "*) ;; *) fail "--only 'Grade/*' (which names the timed case) ran no performance unit: $(tests_named "$replay")" ;; esac
PATH="$work/bin:$PATH" "$root/scripts/grade.sh" --family reduction --seed 1 --only 'Grade/OnePass*' \
  --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/replay-values" >"$work/replay-values.log" 2>&1
project="$work/replay-values/ctest/CTestTestfile.cmake"
if [ ! -f "$project" ]; then
  fail "--only 'Grade/OnePass*': grade.sh wrote no project ($work/replay-values.log)"
else
  case " $(tests_named "$project") " in *" performance "* | *sanitizer*) fail "--only 'Grade/OnePass*' ran [$(tests_named "$project")]: a value case's replay runs its values only" ;; esac
  case " $(tests_named "$project") " in *" values "*) ;; *) fail "--only 'Grade/OnePass*' ran no value unit: [$(tests_named "$project")]" ;; esac
fi
PATH="$work/bin:$PATH" "$root/scripts/grade.sh" --family reduction --seed 1 --only 'Grade/Performance*' \
  --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/replay-timed" >"$work/replay-timed.log" 2>&1
project="$work/replay-timed/ctest/CTestTestfile.cmake"
[ -f "$project" ] && [ "$(tests_named "$project")" = "performance" ] ||
  fail "--only 'Grade/Performance*': expected the performance unit alone, got [$( [ -f "$project" ] && tests_named "$project")] ($work/replay-timed.log)"
PATH="$work/bin:$PATH" "$root/scripts/grade.sh" --family reduction --seed 1 --processes per-group --only 'Grade/OnePass*' \
  --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/replay-groups" >"$work/replay-groups.log" 2>&1
project="$work/replay-groups/ctest/CTestTestfile.cmake"
expected_groups=$(KCONFORM_SUBMISSION_TRAITS="$work/replay-groups/traits.json" "$KCONFORM_GRADE_SUITE_BUILD/tools/runner/kconform_runner" \
  list --exe "$KCONFORM_GRADE_SUITE_BUILD/grading/reduction_grading_tests" --filter 'Grade/OnePass*' 2>/dev/null | cut -f1 | sort | paste -sd' ' -)
[ -f "$project" ] && [ -n "$expected_groups" ] && [ "$(tests_named "$project")" = "$expected_groups" ] ||
  fail "--processes per-group --only 'Grade/OnePass*': ran [$( [ -f "$project" ] && tests_named "$project")], expected the groups holding such cases [$expected_groups]"
# A replay naming no case is refused before anything runs.
PATH="$work/bin:$PATH" "$root/scripts/grade.sh" --family reduction --seed 1 --only 'NoSuch/Case*' \
  --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/replay-none" >"$work/replay-none.log" 2>&1
status=$?
[ $status -eq 2 ] && grep -q "names no case of any submission" "$work/replay-none.log" ||
  fail "--only 'NoSuch/Case*': exit $status, expected 2 saying it names no case ($work/replay-none.log)"
PATH="$work/bin:$PATH" "$root/scripts/grade.sh" --family reduction --seed 1 --tool valgrind \
  --submission "$root/tests/submissions/reduction/correct.cu" --out "$work/tool-bad" >"$work/tool-bad.log" 2>&1
status=$?
[ $status -eq 2 ] && grep -q -- "--tool must be" "$work/tool-bad.log" || fail "--tool valgrind: exit $status, expected 2 saying so"
[ $failures -eq 0 ] && echo "PASSED: a batch's tests start longest first, the performance units last (with --performance-overlap behind a barrier, on a share of the slots, holding their GPU), no failure dumps but in a replay"
[ $failures -eq 0 ]
