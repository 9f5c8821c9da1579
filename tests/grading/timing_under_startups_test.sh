#!/usr/bin/env bash
# timing_under_startups_test.sh <repository root> <scratch dir>
#
# scripts/grading_timing_under_startups.sh without a GPU, through stand-ins: its refusals (before
# anything runs), CTest's skip where there is no GPU, and with a stand-in nvidia-smi, grade.sh and
# start-up probe, its runs (alone and beside in turn), its table and its finding both ways: a stand-in
# whose ratio moves while the probes run is "outside" the alone runs' spread, one whose ratio does not
# is "within". What CUDA start-ups do to a real timing is the script's to measure on a GPU.
set -uo pipefail
root=$(cd "$1" && pwd) scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch" && scratch=$(cd "$scratch" && pwd)
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
indent() { sed 's/^/    /'; }

# A copy of the script beside a stand-in grade.sh: the stand-in writes the performance unit's record,
# its ratio 1.00, 0.99 or 1.01 by run (a spread), plus 0.30 while the probe stand-ins are running
# (they append to probes.log) if FAKE_CHURN_MOVES=1.
copy="$scratch/repo"
mkdir -p "$copy/scripts" "$scratch/bin"
cp "$root/scripts/grading_timing_under_startups.sh" "$root/scripts/unit_records.py" "$copy/scripts/"
cat >"$copy/scripts/grade.sh" <<'FAKE'
#!/usr/bin/env bash
out=''
while [ $# -gt 0 ]; do case "$1" in --out) out=$2; shift 2 ;; *) shift ;; esac; done
mkdir -p "$out/run/units"
before=$(wc -l <"$FAKE_PROBE_LOG" 2>/dev/null || echo 0)
sleep 0.3
after=$(wc -l <"$FAKE_PROBE_LOG" 2>/dev/null || echo 0)
run=${out##*-}
ratio=$(awk -v r="$run" -v churn=$((after > before)) -v moves="${FAKE_CHURN_MOVES:-0}" \
  'BEGIN { printf "%.4f", 1.0 + ((r % 3) - 1) * 0.01 + (churn && moves ? 0.30 : 0) }')
printf '{"unit": "grade.performance", "cases": [{"name": "Grade/Performance.AgainstReference/P0", "properties": {"ratio": "%s", "submission_ms": "1.2", "reference_ms": "1.2", "call_cost_ms": "0.4"}}]}\n' \
  "$ratio" >"$out/run/units/grade.performance.json"
FAKE
chmod +x "$copy/scripts/grade.sh"
# The probe stand-in lasts 0.2 s (a real start-up's order), so a loop stopped carelessly would leave
# one running (checked at the end by its name).
printf '#!/bin/bash\necho started >>"$FAKE_PROBE_LOG"\nexec -a kc-fake-probe sleep 0.2\n' >"$scratch/probe"
printf '#!/bin/sh\n[ "$1" = -L ] && echo "GPU 0: FAKE GPU (UUID: GPU-0)"\nexit 0\n' >"$scratch/bin/nvidia-smi"
chmod +x "$scratch/probe" "$scratch/bin/nvidia-smi"
echo '__global__ void k() {}' >"$scratch/student.cu"
script="$copy/scripts/grading_timing_under_startups.sh"
export FAKE_PROBE_LOG="$scratch/probes.log"

# ---- refusals (exit 2), before any GPU is looked for ----
for args in "" "--family reduction" "--family reduction --submission $scratch/none.cu" \
            "--family reduction --submission $scratch/student.cu --runs 0" \
            "--family reduction --submission $scratch/student.cu --churn x" "--family reduction --bogus" "--runs"; do
  # shellcheck disable=SC2086  # the arguments, split
  "$script" $args >"$scratch/refused.log" 2>&1
  status=$?
  [ $status -eq 2 ] || { fail "arguments '$args': exit $status, not 2"; indent <"$scratch/refused.log"; }
done

# ---- no GPU: CTest's skip ----
mkdir -p "$scratch/nogpu"
printf '#!/bin/sh\nexit 9\n' >"$scratch/nogpu/nvidia-smi"
chmod +x "$scratch/nogpu/nvidia-smi"
PATH="$scratch/nogpu:$PATH" "$script" --family reduction --submission "$scratch/student.cu" --probe "$scratch/probe" \
  --out "$scratch/none" >"$scratch/nogpu.log" 2>&1
status=$?
[ $status -eq 77 ] || { fail "without a GPU: exit $status, not 77"; indent <"$scratch/nogpu.log"; }

# ---- a ratio the start-ups move, and one they do not ----
for moves in 1 0; do
  : >"$FAKE_PROBE_LOG"
  PATH="$scratch/bin:$PATH" FAKE_CHURN_MOVES=$moves "$script" --family reduction --submission "$scratch/student.cu" \
    --runs 3 --churn 2 --probe "$scratch/probe" --out "$scratch/moves-$moves" >"$scratch/moves-$moves.log" 2>&1
  status=$?
  [ $status -eq 0 ] || { fail "FAKE_CHURN_MOVES=$moves: exit $status"; indent <"$scratch/moves-$moves.log"; continue; }
  [ "$(grep -c $'^alone\t' "$scratch/moves-$moves/runs.tsv")" -eq 3 ] && [ "$(grep -c $'^beside\t' "$scratch/moves-$moves/runs.tsv")" -eq 3 ] ||
    { fail "FAKE_CHURN_MOVES=$moves: runs.tsv does not hold 3 runs of each mode"; indent <"$scratch/moves-$moves/runs.tsv"; }
  grep -q '^alone: median ratio 1.0000, spread 0.9900-1.0100 (3 runs)$' "$scratch/moves-$moves.log" ||
    { fail "FAKE_CHURN_MOVES=$moves: the alone runs' median and spread"; indent <"$scratch/moves-$moves.log"; }
  if [ $moves = 1 ]; then expected='median ratio was 1.3000 against 1.0000 alone (+30.0%): outside'
  else expected='median ratio was 1.0000 against 1.0000 alone (+0.0%): within'; fi
  grep -q "$expected" "$scratch/moves-$moves/summary.txt" 2>/dev/null ||
    { fail "FAKE_CHURN_MOVES=$moves: no '$expected'"; indent <"$scratch/moves-$moves.log"; }
done
[ "$(wc -l <"$FAKE_PROBE_LOG")" -gt 0 ] || fail "the start-up probe never ran beside a grade"
# No probe loop, and no probe, outlives the script (or runs on into the next alone run).
! pgrep -f kc-fake-probe >/dev/null || fail "a probe was left running after the script ended"
: >"$FAKE_PROBE_LOG"
sleep 0.5
[ "$(wc -l <"$FAKE_PROBE_LOG")" -eq 0 ] || fail "a probe loop was left running after the script ended"

[ $failures -eq 0 ] || { echo "FAILED: $failures check(s); logs under $scratch"; exit 1; }
echo "PASSED: the timing-under-start-ups script's refusals, skip, runs, table and both findings, without a GPU"
