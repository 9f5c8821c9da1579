#!/usr/bin/env bash
# Times gpu-quick at several part sizes (issue 35: gpu-quick <= 10 s on one H100).
#
#   scripts/quick_part_sweep.sh [--out <dir>] [--slots <n>[,<n>...]] <cases per process>...
#   scripts/quick_part_sweep.sh 2000 1200 800
#   scripts/quick_part_sweep.sh --slots 10,16,24 2000
#
# Why: gpu-quick runs each program's quick units in processes of about KCONFORM_QUICK_CASES_PER_PROCESS
# cases (a unit larger than that in slices: tools/runner/unit_choice.hpp). Smaller parts shorten the
# longest process, and each part more is one CUDA context more, which the driver makes one at a time
# (docs/architecture.md, "Start-up"); where the two meet is measured, not guessed: on an H100 at
# 7a7ffcf parts of ~1,700-2,700 cases took 9-10.3 s each and the run 12.85 s.
# For each value, in the order given: reconfigures build/gpu (preset gpu's folder, already built) with
# -DKCONFORM_QUICK_CASES_PER_PROCESS=<value>, runs `ctest --preset gpu-quick`, and records the wall
# time, CTest's status, the longest quick tests, where all quick cases' seconds went (the runner's
# unit records under build/gpu/quick/units: start-ups, the fixtures/time_spent kinds, the rest), and
# each unit's (or slice's) cases and seconds, for a partition by measured time. The build's setting
# is put back as it was when the script ends, cut short too.
# --slots: at these many slots per GPU (CTest's resource spec, ctest_config/make_resource_spec.sh;
# default 13, the preset's since issue 35), each part size at each. Why: gpu-quick's 19 GPU tests ask
# one slot each, so at 10 slots they ran in two waves. Measured on an H200 at 7b96a08 (two sweeps,
# parts of 2,000): 10 slots 10.52 s and 10.31 s, 13 slots 9.79 s and 9.78 s, 16 slots 9.91 s and
# 9.89 s; before the guard scans rode on the launch's wait (d02e6af) 13.04, 12.46 and 12.55 s at 10,
# 16 and 24 (the full run's shared phase took the same 60.1 s at 10 and 12 slots, dd39a18).
# CTest runs 6 jobs more than the slots (the preset's 19 at 13); the processes' OpenMP threads stay
# the build's (cores over 10), which a higher slot count oversubscribes: part of what is measured.
# Writes <out>/sweep.tsv (value, slots, quick tests, wall s, ctest status, longest test and its
# seconds), <out>/quick-<value>-<slots>.log (ctest's output and the breakdown) and each part size's
# configure log. Default --out:
# reports/quick-sweep-<date>.
# Exit: 0 every run passed; 1 a run failed (its log says which test); 2 bad usage.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/gpu out='' slot_list=13
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || { echo "quick_part_sweep.sh: --out needs a folder" >&2; exit 2; }; out=$2; shift 2 ;;
    --slots) [ $# -ge 2 ] || { echo "quick_part_sweep.sh: --slots needs a number or a list (10,16)" >&2; exit 2; }
      slot_list=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "quick_part_sweep.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "quick_part_sweep.sh: give at least one number of cases per process (--help)" >&2; exit 2; }
IFS=, read -r -a slot_values <<<"$slot_list"
for v in "$@" "${slot_values[@]}"; do
  case "$v" in '' | *[!0-9]* | 0*) echo "quick_part_sweep.sh: '$v' is not a positive whole number" >&2; exit 2 ;; esac
done
[ ${#slot_values[@]} -ge 1 ] || { echo "quick_part_sweep.sh: --slots '$slot_list' names no number" >&2; exit 2; }
[ -f "$build/CMakeCache.txt" ] || { echo "quick_part_sweep.sh: $build is not a configured build (cmake --preset gpu)" >&2; exit 2; }
[ -n "$out" ] || out=$root/reports/quick-sweep-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
before=$(sed -n 's/^KCONFORM_QUICK_CASES_PER_PROCESS:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$before" ] || before=2000
cd "$root" || exit 2
restore() {
  cmake -S "$root" -B "$build" -DKCONFORM_QUICK_CASES_PER_PROCESS="$before" >/dev/null 2>&1 ||
    echo "quick_part_sweep.sh: could not put KCONFORM_QUICK_CASES_PER_PROCESS back to $before"
}
trap restore EXIT
trap 'exit 2' INT TERM
printf 'cases_per_process\tslots\tquick_tests\twall_s\tctest_status\tlongest_test\tlongest_s\n' >"$out/sweep.tsv"
status=0
# One spec per slot count, one configure per part size: each is the same for every run that uses it.
for slots in "${slot_values[@]}"; do
  "$root/ctest_config/make_resource_spec.sh" "$out/resources-$slots.json" "$slots" ||
    { echo "quick_part_sweep.sh: could not write a spec of $slots slots"; exit 2; }
done
for v in "$@"; do
 if ! cmake -S "$root" -B "$build" -DKCONFORM_QUICK_CASES_PER_PROCESS="$v" >"$out/configure-$v.log" 2>&1; then
   echo "quick_part_sweep.sh: configuring with $v failed ($out/configure-$v.log)"; status=1; continue
 fi
 for slots in "${slot_values[@]}"; do
  log=$out/quick-$v-$slots.log
  : >"$log"
  rm -rf "$build/quick/units"  # this run's unit records only
  started=$(date +%s%N)
  # 6 jobs more than GPU slots, as the preset has at 13 (19), so the CPU tests never wait for the GPU ones.
  ctest --preset gpu-quick --resource-spec-file "$out/resources-$slots.json" -j $((slots + 6)) >>"$log" 2>&1
  ran=$?
  wall_ns=$(( $(date +%s%N) - started ))
  [ "$ran" = 0 ] || status=1
  python3 - "$root" "$build" "$log" "$v" "$wall_ns" "$ran" "$slots" >>"$out/sweep.tsv" <<'PY' ||
import glob, json, os, re, sys
sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
from unit_records import ACTIVITY_KEYS, activity_seconds, cases, number, startup_seconds
build, log, value, wall_ns, ran, slots = sys.argv[2:8]
wall = int(wall_ns) / 1e9
text = open(log, encoding="utf-8", errors="replace").read()
# CTest's line per test: "<k>/<n> Test #<id>: <name> ....   Passed    9.47 sec"
tests = re.findall(r"Test +#\d+: (\S+) \.+\s*\**\s*(\w+)\s+([0-9.]+) sec", text)
quick = sorted(((float(s), n) for n, _, s in tests if ".quick" in n), reverse=True)
# Where the longest quick tests' cases went: their units' records (a part's units share its processes).
with open(log, "a", encoding="utf-8") as f:
    f.write(f"\n== {value} cases per process, {slots} slots: {len(quick)} quick tests, wall {float(wall):.2f} s, "
            f"ctest status {ran}\n")
    f.write("longest quick tests (s):\n")
    records = {}
    for path in glob.glob(os.path.join(build, "quick", "units", "*.json")):
        try:
            record = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(record, dict):
            records[os.path.basename(path)[:-5]] = record
    for seconds, name in quick[:8]:
        f.write(f"{seconds:7.2f}  {name}\n")
    totals = {"startup": 0.0, "cases": 0.0, "unit": 0.0}
    kinds = {k: 0.0 for k in ACTIVITY_KEYS}
    for record in records.values():
        totals["unit"] += number(record.get("seconds")) or 0.0
        for c in cases(record):
            own = number(c.get("seconds")) or 0.0
            totals["cases"] += own
            totals["startup"] += startup_seconds(c) or 0.0
            for k, v in activity_seconds(c).items():
                kinds[k] += v
    rest = totals["cases"] - totals["startup"] - sum(kinds.values())
    f.write(f"all quick units: {totals['unit']:.1f} unit-s, cases {totals['cases']:.1f} s: start-ups {totals['startup']:.1f}, "
            + ", ".join(f"{k[:-8]} {v:.1f}" for k, v in kinds.items()) + f", rest {rest:.1f}\n")
    # Each quick unit's (or slice's) cases and their seconds: what a partition by time would read.
    f.write("per unit (cases, seconds of its cases, start-ups included):\n")
    for unit, record in sorted(records.items(), key=lambda kv: -sum(number(c.get("seconds")) or 0 for c in cases(kv[1]))):
        own = sum(number(c.get("seconds")) or 0 for c in cases(record))
        f.write(f"  {unit}\t{len(cases(record))}\t{own:.2f}\n")
longest = quick[0] if quick else (0.0, "-")
print(f"{value}\t{slots}\t{len(quick)}\t{float(wall):.2f}\t{ran}\t{longest[1]}\t{longest[0]:.2f}")
PY
    { echo "quick_part_sweep.sh: reading the run with $v and $slots slots failed (above)"; status=1; continue; }
  tail -1 "$out/sweep.tsv"
 done
done
column -t -s $'\t' "$out/sweep.tsv" 2>/dev/null || cat "$out/sweep.tsv"
exit $status
