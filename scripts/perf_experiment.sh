#!/usr/bin/env bash
# The perf verdict's acceptance test (docs/performance.md): false alarms on unchanged code (A/A) and
# detection of planted slowdowns, on this GPU against its committed baseline.
#
#   scripts/perf_experiment.sh <out-dir> <runs> <plant>...     e.g.  out 10 0      (A/A)
#                                                                     out 10 0.05 0.10 0.20
#
# For each plant fraction, `runs` passes of `ctest --preset perf` (the seeds' conclusions left out:
# they have no baseline); plant 0 is the A/A run, any other adds a calibrated delay of that share of
# each point's baseline median inside its timed region (KCONFORM_PERF_PLANT). Every pass's rows land
# in <out-dir>/plant-<p>/run-<i>/perf/*.tsv; then <out-dir>/experiment.md tabulates, per plant and
# per point class (short: baseline median < 50 µs; long: >= 50 µs), the SLOW verdicts and the share
# of points flagged SLOW in at least 9 of 10 runs, with the wall time of each pass.
# Run it alone on the GPU; build first (cmake --preset gpu && cmake --build --preset gpu).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:?out dir}; runs=${2:?runs}; shift 2
mkdir -p "$out"; out=$(cd "$out" && pwd)
export KCONFORM_REQUIRE_GPU=1
for plant in "$@"; do
  for i in $(seq 1 "$runs"); do
    dir="$out/plant-$plant/run-$i"
    rm -rf "$dir" && mkdir -p "$dir"  # an earlier experiment's rows must not be counted
    t0=$(date +%s.%N)
    KCONFORM_PERF_PLANT=$plant KCONFORM_REPORT_DIR="$dir" ctest --preset perf -E 'SeedConclusions' >"$dir/ctest.log" 2>&1
    echo "$?" >"$dir/status"
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >"$dir/wall_s"
    echo "plant $plant run $i: $(cat "$dir/wall_s") s, ctest status $(cat "$dir/status"), SLOW rows: $(cat "$dir"/perf/*.tsv 2>/dev/null | awk -F'\t' '$7 == "SLOW"' | wc -l)"
  done
done
scripts/summarise_perf_experiment.sh "$out" >"$out/experiment.md"
cat "$out/experiment.md"
# No judged row at all means the passes broke (no build, no baseline): not an experiment.
if ! cat "$out"/plant-*/run-*/perf/*.tsv 2>/dev/null | awk -F'\t' '$1 != "key" && $12 != "" { found = 1 } END { exit !found }'; then
  echo "perf_experiment.sh: no judged perf rows: see $out/plant-*/run-*/ctest.log" >&2
  exit 1
fi
