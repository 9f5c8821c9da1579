#!/usr/bin/env bash
# Does a graded performance case time the same while other processes start CUDA beside it? (issue 33)
#
#   scripts/grading_timing_under_startups.sh --family <family> --submission <file.cu>
#       [--runs 6] [--churn 4] [--seed 1] [--out <dir>] [--probe <program>]
#
# Why: a class's performance units run one at a time, each with its GPU to itself, for a third of the
# class's grading or more (docs/grading.md, "Session of 2026-11-27 (fifth)": occupancy 124 of 321 s),
# and about half of each is the unit's own start-up (its judge's and executor's CUDA contexts, which
# the driver makes one at a time). Starting the next units while one is timed would hide those
# start-ups, but only if a context being made beside a timed region leaves the ratio where it was.
# This measures that: the submission graded `--runs` times alone and `--runs` times while `--churn`
# loops start and end CUDA processes beside it (the start-up probe, tools/startup_probe, the same
# start a grading process makes), alone and beside in turn (which goes first alternates, so drift
# falls on both), one seed for all (the same inputs). From each run's performance unit
# (run/units/grade.performance.json) it prints the ratio, the submission's and the reference's
# medians and the exchange's cost, then per mode the median ratio and its spread, and whether the
# beside runs' median lies within the alone runs' spread.
# It decides nothing by itself: docs/grading.md records what it found and what was built on it.
#
# Writes <out>/<alone|beside>-<i>/ (grade.sh's folders), <out>/runs.tsv and <out>/summary.txt.
# Exit: 0 measured; 1 a run gave no ratio (its grade.log says why); 2 bad usage; 77 no GPU.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
family='' submission='' runs=6 churn=4 seed=1 out='' probe=''
while [ $# -gt 0 ]; do
  case "$1" in
    --family | --submission | --runs | --churn | --seed | --out | --probe)
      [ $# -ge 2 ] || { echo "grading_timing_under_startups.sh: $1 needs a value" >&2; exit 2; } ;;
  esac
  case "$1" in
    --family) family=$2; shift 2 ;;
    --submission) submission=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --churn) churn=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "grading_timing_under_startups.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
usage() { echo "grading_timing_under_startups.sh: $*" >&2; exit 2; }
[ -n "$family" ] || usage "give --family"
[ -f "$submission" ] || usage "no such submission: '$submission'"
case "$runs" in '' | *[!0-9]* | 0) usage "--runs must be a positive integer" ;; esac
case "$churn" in '' | *[!0-9]* | 0) usage "--churn must be a positive integer" ;; esac
case "$seed" in '' | *[!0-9]*) usage "--seed must be an unsigned integer" ;; esac
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU on this machine (nvidia-smi -L failed): nothing to time"
  exit 77
fi
[ -n "$probe" ] || probe=$root/build/gpu/tools/startup_probe/kconform_cuda_startup_probe
[ -x "$probe" ] || usage "no start-up probe at $probe (cmake --build --preset gpu builds it; or --probe <program>)"
[ -n "$out" ] || out="grades/timing-under-startups-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out" && out=$(cd "$out" && pwd) || usage "cannot create $out"
submission=$(cd "$(dirname "$submission")" && pwd)/$(basename "$submission")

churners=()
start_churn() {
  local k
  for ((k = 0; k < churn; k++)); do
    ( while :; do "$probe" >/dev/null 2>&1; done ) &
    churners+=($!)
  done
}
stop_churn() {
  local pid
  for pid in ${churners[@]+"${churners[@]}"}; do
    kill -STOP "$pid" 2>/dev/null     # the loop stopped first, so it starts no probe after the next line
    pkill -KILL -P "$pid" 2>/dev/null  # the probe it is running
    kill "$pid" 2>/dev/null
    kill -CONT "$pid" 2>/dev/null      # to take the TERM
    wait "$pid" 2>/dev/null
  done
  churners=()
}
trap stop_churn EXIT

grade_once() {  # grade_once <mode> <run>
  local dir="$out/$1-$2"
  rm -rf "$dir"
  [ "$1" = alone ] || start_churn
  "$root/scripts/grade.sh" --family "$family" --submission "$submission" --seed "$seed" --out "$dir" >"$dir.log" 2>&1
  stop_churn
  mv "$dir.log" "$dir/grade.log" 2>/dev/null
}

echo "timing $(basename "$submission") ($family) $runs times alone and $runs times beside $churn loops of CUDA start-ups, seed $seed, into $out"
for ((i = 1; i <= runs; i++)); do
  if ((i % 2 == 1)); then order="alone beside"; else order="beside alone"; fi
  for mode in $order; do
    grade_once "$mode" "$i"
  done
done

exec python3 - "$out" "$runs" "$churn" "$root/scripts" <<'PY'
import os, statistics, sys

sys.path.insert(0, sys.argv[4])
from unit_records import cases, number, unit_records  # scripts/unit_records.py

out, runs, churn = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows, missing = [], []
for mode in ("alone", "beside"):
    for i in range(1, runs + 1):
        # Each run's performance unit (grade.sh's <out>/run/units/grade.performance.json), its one case.
        props = {}
        for _, record in unit_records(out, f"{mode}-{i}"):
            performance = cases(record) if record.get("unit") == "grade.performance" else []
            if performance and isinstance(performance[0].get("properties"), dict):
                props = performance[0]["properties"]
        ratio = number(props.get("ratio"))
        if ratio is None:
            missing.append(f"{mode}-{i}")
            continue
        rows.append((mode, i, ratio, props.get("submission_ms", "-"), props.get("reference_ms", "-"),
                     props.get("call_cost_ms", "-")))
with open(os.path.join(out, "runs.tsv"), "w", encoding="utf-8") as f:
    f.write("mode\trun\tratio\tsubmission_ms\treference_ms\tcall_cost_ms\n")
    for r in rows:
        f.write("\t".join(str(x) for x in r) + "\n")
lines = [f"{'mode':<7} {'run':>3} {'ratio':>8} {'submission ms':>13} {'reference ms':>12} {'exchange ms':>11}"]
for mode, i, ratio, sub, ref, call in rows:
    lines.append(f"{mode:<7} {i:>3} {ratio:>8.4f} {sub:>13} {ref:>12} {call:>11}")
by_mode = {m: [r[2] for r in rows if r[0] == m] for m in ("alone", "beside")}
for mode, ratios in by_mode.items():
    if ratios:
        lines.append(f"{mode}: median ratio {statistics.median(ratios):.4f}, spread {min(ratios):.4f}-{max(ratios):.4f} "
                     f"({len(ratios)} runs)")
if missing:
    lines.append(f"no ratio in: {', '.join(missing)} (their grade.log says why)")
if by_mode["alone"] and by_mode["beside"]:
    low, high = min(by_mode["alone"]), max(by_mode["alone"])
    beside = statistics.median(by_mode["beside"])
    alone = statistics.median(by_mode["alone"])
    where = "within" if low <= beside <= high else "outside"
    lines.append(f"beside {churn} loops of CUDA start-ups the median ratio was {beside:.4f} against {alone:.4f} alone "
                 f"({(beside / alone - 1) * 100:+.1f}%): {where} the alone runs' spread {low:.4f}-{high:.4f}")
text = "\n".join(lines)
print(text)
with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
    f.write(text + "\n")
sys.exit(1 if missing else 0)
PY
