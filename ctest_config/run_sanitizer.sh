#!/usr/bin/env bash
# run_sanitizer.sh <tool> <clean|expect-hazard> <test executable> <gtest filter>
#
# Runs the filtered GoogleTest cases under compute-sanitizer and decides from its summary:
#   clean          passes only if the tool reports nothing: no errors AND no warnings (racecheck
#                  reports the classic volatile warp race as a warning, with "0 errors", so an
#                  exit code from --error-exitcode alone would let it through)
#   expect-hazard  the known-bad twin: passes only if the tool reports at least one hazard
# Exits 77 (CTest's SKIP_RETURN_CODE here) where there is no GPU or no compute-sanitizer.
set -u
tool=$1 mode=$2 exe=$3 filter=$4
skip=77

sanitizer=$(command -v compute-sanitizer || true)
[ -n "$sanitizer" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [ -z "$sanitizer" ]; then echo "SKIPPED: compute-sanitizer is not installed"; exit $skip; fi
if ! nvidia-smi -L >/dev/null 2>&1; then echo "SKIPPED: no CUDA GPU on this machine (nvidia-smi -L failed)"; exit $skip; fi

args=(--tool "$tool" --error-exitcode 86 --print-limit 25)
case "$tool" in
  memcheck) args+=(--leak-check full) ;;
  racecheck) args+=(--racecheck-report all) ;;
esac

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$sanitizer" "${args[@]}" "$exe" --gtest_filter="$filter" --gtest_brief=1 >"$log" 2>&1
status=$?
cat "$log"

# "========= ERROR SUMMARY: 3 errors" / "========= RACECHECK SUMMARY: 5 hazards displayed (0 errors, 5 warnings)"
reported=$(grep -Eo '(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard|\(([0-9]+) errors, ([0-9]+) warnings)' "$log" |
  grep -Eo '[0-9]+' | awk '{s += $1} END {print s + 0}')
races=$(grep -c 'Race reported\|Potential RAW\|Potential WAR\|Potential WAW' "$log")
ran=$(grep -Eo '\[==========\] [0-9]+ tests? from [0-9]+ test suites? ran' "$log" | grep -Eo '^\[==========\] [0-9]+' | grep -Eo '[0-9]+$' | tail -n 1)
ran=${ran:-0}

echo "run_sanitizer: tool=$tool mode=$mode tests=$ran reported=$reported race-lines=$races exit=$status"
if [ "$ran" -eq 0 ]; then
  echo "FAILED: the filter '$filter' selected no test: nothing was checked"
  exit 1
fi
if [ "$mode" = expect-hazard ]; then
  if [ "$reported" -gt 0 ] || [ "$races" -gt 0 ]; then
    echo "PASSED: $tool caught the known-bad kernel"
    exit 0
  fi
  echo "FAILED: $tool reported no hazard for a known-bad kernel: the suite has a hole"
  exit 1
fi
if [ "$status" -ne 0 ] || [ "$reported" -gt 0 ] || [ "$races" -gt 0 ]; then
  echo "FAILED: $tool reported problems (see above)"
  exit 1
fi
echo "PASSED: $tool reported nothing"
