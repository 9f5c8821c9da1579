#!/usr/bin/env bash
# run_sanitizer.sh <tool> <clean|expect-hazard-each> <test executable> <gtest filter>
#
# Runs GoogleTest cases under compute-sanitizer on exact-size buffers (KCONFORM_EXACT_BUFFERS=1:
# no guard zones, no poison — a guard would absorb a read one past the end, and poison would make
# every byte "initialised", so memcheck and initcheck could see nothing), and decides from its
# summary:
#   clean               the filtered cases in one run; passes only if the tool reports nothing: no
#                       errors AND no warnings (racecheck reports the classic volatile warp race as
#                       a warning, with "0 errors", so --error-exitcode alone would let it through)
#   expect-hazard-each  the known-bad twin: runs every case the filter selects on its own, and
#                       passes only if the tool reports a hazard in each one. The cases are the
#                       registry's rows for this tool; none selected means no row expects the tool
#                       (reported as skipped, never as passed).
# Exits 77 (CTest's SKIP_RETURN_CODE here) where there is no GPU or no compute-sanitizer.
set -u
tool=$1 mode=$2 exe=$3 filter=$4
skip=77
export KCONFORM_EXACT_BUFFERS=1

sanitizer=$(command -v compute-sanitizer || true)
[ -n "$sanitizer" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
# Under KCONFORM_REQUIRE_GPU=1 (the GPU run) a missing GPU or sanitizer is a failure, never a skip.
missing=$skip
case "${KCONFORM_REQUIRE_GPU:-}" in "" | 0) ;; *) missing=1 ;; esac
if [ -z "$sanitizer" ]; then echo "SKIPPED: compute-sanitizer is not installed"; exit $missing; fi
if ! nvidia-smi -L >/dev/null 2>&1; then echo "SKIPPED: no CUDA GPU on this machine (nvidia-smi -L failed)"; exit $missing; fi

args=(--tool "$tool" --error-exitcode 86 --print-limit 25)
case "$tool" in
  memcheck) args+=(--leak-check full) ;;
  racecheck) args+=(--racecheck-report all) ;;
esac

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run_one <filter>: runs the sanitizer; sets status, reported, races, ran.
run_one() {
  "$sanitizer" "${args[@]}" "$exe" --gtest_filter="$1" --gtest_brief=1 >"$log" 2>&1
  status=$?
  cat "$log"
  # "========= ERROR SUMMARY: 3 errors" / "========= RACECHECK SUMMARY: 5 hazards displayed (0 errors, 5 warnings)"
  reported=$(grep -Eo '(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard|\(([0-9]+) errors, ([0-9]+) warnings)' "$log" |
    grep -Eo '[0-9]+' | awk '{s += $1} END {print s + 0}')
  races=$(grep -c 'Race reported\|Potential RAW\|Potential WAR\|Potential WAW' "$log")
  ran=$(grep -Eo '\[==========\] [0-9]+ tests? from [0-9]+ test suites? ran' "$log" | grep -Eo '^\[==========\] [0-9]+' | grep -Eo '[0-9]+$' | tail -n 1)
  ran=${ran:-0}
  echo "run_sanitizer: tool=$tool filter=$1 tests=$ran reported=$reported race-lines=$races exit=$status"
}

if [ "$mode" = expect-hazard-each ]; then
  if ! listing=$("$exe" --gtest_filter="$filter" --gtest_list_tests); then
    echo "$listing"
    echo "FAILED: could not list the cases of $exe: the gate cannot run"
    exit 1
  fi
  cases=$(echo "$listing" | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}')
  if [ -z "$cases" ]; then
    echo "SKIPPED: no registry row expects $tool to catch it (filter '$filter' selects no case)"
    exit $skip
  fi
  missed=0 total=0
  for case in $cases; do
    total=$((total + 1))
    run_one "$case"
    if [ "$ran" -eq 0 ]; then
      echo "MISSED: $case did not run"
      missed=$((missed + 1))
    elif [ "$reported" -gt 0 ] || [ "$races" -gt 0 ]; then
      echo "CAUGHT: $tool reported $reported hazard(s) for $case"
    else
      echo "MISSED: $tool reported nothing for the known-bad $case"
      missed=$((missed + 1))
    fi
  done
  if [ $missed -gt 0 ]; then
    echo "FAILED: $tool missed $missed of $total known-bad row(s): the suite has a hole"
    exit 1
  fi
  echo "PASSED: $tool caught all $total known-bad row(s)"
  exit 0
fi

run_one "$filter"
if [ "$ran" -eq 0 ]; then
  echo "FAILED: the filter '$filter' selected no test: nothing was checked"
  exit 1
fi
if [ "$status" -ne 0 ] || [ "$reported" -gt 0 ] || [ "$races" -gt 0 ]; then
  echo "FAILED: $tool reported problems (see above)"
  exit 1
fi
echo "PASSED: $tool reported nothing"
