#!/usr/bin/env bash
# Records (or refreshes) this GPU's performance baseline: ctest_config/baselines/<gpu>.json.
#
#   scripts/record_baselines.sh [runs]          (default 5; at least 5)
#
# Builds the `gpu` preset, then runs every perf test `runs` times, each run a separate pass of
# `ctest --preset perf` (so every point is measured in `runs` independent processes), in record
# mode (KCONFORM_PERF_RECORD): nothing is judged. tools/baseline merges the runs: per point the
# median of the runs' medians and their run-to-run spread, which the verdict's threshold scales with.
# The raw runs are kept in build/gpu/baseline-runs/. Refreshing a baseline is a deliberate commit:
# review the diff (one line per point) and commit it; no test run ever writes this file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${1:-5}
if ! [[ "$runs" =~ ^[0-9]+$ ]] || [ "$runs" -lt 5 ]; then echo "record_baselines.sh: at least 5 runs (the spread needs them)" >&2; exit 2; fi

cmake --preset gpu >/dev/null
cmake --build --preset gpu
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
file=$(build/gpu/tools/baseline/kconform_baseline name "$gpu_name")
raw=build/gpu/baseline-runs
mkdir -p ctest_config/baselines
rm -rf "$raw" && mkdir -p "$raw"
export KCONFORM_COMMIT=${KCONFORM_COMMIT:-$("$root/scripts/tree_commit.sh" "$root")}
export KCONFORM_REQUIRE_GPU=1
for i in $(seq 1 "$runs"); do
  echo "== run $i of $runs"
  # The seeds' conclusions have no baseline to record.
  KCONFORM_PERF_RECORD="$root/$raw/run$i.jsonl" ctest --preset perf -E 'SeedConclusions' >"$raw/run$i.log" 2>&1 ||
    { tail -n 30 "$raw/run$i.log"; echo "record run $i failed: $raw/run$i.log" >&2; exit 1; }
done
build/gpu/tools/baseline/kconform_baseline merge --min-runs 5 --out "ctest_config/baselines/$file" "$raw"/run*.jsonl
echo "wrote ctest_config/baselines/$file from $runs runs at $KCONFORM_COMMIT: review with git diff, then commit it"
