#!/usr/bin/env bash
# progress_line_test.sh <scripts dir>: scripts/progress_line.sh (the main job's live progress) on a
# fake CTest log, on every machine. Each check fails the test with what it saw.
set -u
progress=$1/progress_line.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# The last line the watcher prints once its done file appears (it must then end, within seconds).
final_line() {  # <phase> <log> [last seconds] [costs file] [parallel]
  rm -f "$work/done"
  "$progress" "$1" "$2" "$work" "$work/done" "${3:-}" "${4:-}" "${5:-}" >"$work/out" 2>&1 &
  local watcher=$!
  sleep 1
  touch "$work/done"
  for _ in $(seq 50); do kill -0 "$watcher" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$watcher" 2>/dev/null; then
    kill "$watcher"
    echo "STILL RUNNING"
    return
  fi
  tail -n 1 "$work/out"
}

# No test finished yet: it says it is starting, not finishing; given a last-run time (5th argument)
# it still ends when the done file appears (it once read that time as its done file and never ended).
: >"$work/empty.log"
line=$(final_line shared "$work/empty.log")
[[ "$line" == *"0/? tests done"*"starting"* ]] || fail "nothing done yet: '$line'"
line=$(final_line alone "$work/empty.log" 97)
[[ "$line" =~ about\ (9[0-6])\ s\ left\ \(the\ last\ run\ took\ 97\ s\) ]] ||
  fail "with the last run's 97 s (about 90-96 s left after a second or few): '$line'"

# Two of four tests done, one failed, one skipped (not a failure); the measured seconds of the two to
# go (30 and 10) over 2 slots is 20 s, but never less than the longest test left (30 s).
cat >"$work/ctest.log" <<'LOG'
        Start  3: unit.a
1/4 Test  #3: unit.a ...........................   Passed    1.00 sec
        Start 12: unit.b
2/4 Test #12: unit.b ...........................***Failed    2.00 sec
LOG
printf 'unit.a 5\nunit.b 5\nunit.c 30\nunit.d 10\n' >"$work/costs"
line=$(final_line shared "$work/ctest.log" "" "$work/costs" 2)
[[ "$line" == *"2/4 tests done (1 failed)"* ]] || fail "counts: '$line'"
[[ "$line" == *"about 30 s left (measured seconds of the tests to go)"* ]] || fail "estimate (longest left): '$line'"
printf 'unit.a 5\nunit.b 5\nunit.c 30\nunit.d 20\nunit.e 30\n' >"$work/costs"
line=$(final_line shared "$work/ctest.log" "" "$work/costs" 2)
[[ "$line" == *"about 40 s left"* ]] || fail "estimate (80 s over 2 slots): '$line'"
echo '3/4 Test  #7: unit.c ...........................***Skipped   0.10 sec' >>"$work/ctest.log"
line=$(final_line alone "$work/ctest.log" "" "$work/costs" 1)
[[ "$line" == *"3/4 tests done (1 failed)"* ]] || fail "a skipped test is not a failure: '$line'"
[[ "$line" == *"about 50 s left"* ]] || fail "estimate after unit.c (unit.d and unit.e, 1 slot): '$line'"

# The way run_gpu_suite.sh starts and stops it (scripts/progress_watch.sh), with a last-run time:
# watch_stop must return (the done file once went in after the optional arguments, where the
# watcher read the last-run time as its done file and never ended).
if ! timeout 20 bash -c 'out=$1; . "$2/progress_watch.sh"; watch_start alone "$3" 97 "$4" 1; sleep 1; watch_stop' \
    _ "$work" "$1" "$work/ctest.log" "$work/costs" >/dev/null 2>&1; then
  fail "watch_stop did not return within 20 s of the phase's end (the watcher did not see its done file)"
  pkill -f "$work/.phase-done" 2>/dev/null  # the stray watcher
fi

# Cases from the runner's statistics lines.
mkdir -p "$work/units"
printf 'unit.a\t10\t9\t1\t0\t1\t1.0\t0\t0\t0\n' >"$work/units/unit.a.tsv"
line=$(final_line shared "$work/ctest.log")
[[ "$line" == *"cases 9 passed 1 failed"* ]] || fail "cases: '$line'"

[ "$failures" -eq 0 ] && echo "progress_line.sh: all checks passed"
exit $((failures != 0))
