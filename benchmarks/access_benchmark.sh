#!/usr/bin/env bash
# The access benchmark with its counter columns (issue 9 §7): profiles the launches the benchmark
# lists (access_benchmark --launches), with the metrics it names (--metrics), in one Nsight Compute
# run of the access profile target (ctest_config/ncu_collect.sh), then runs the benchmark with that
# CSV. Where ncu cannot run (not installed, no permission), the benchmark still runs and its counter
# columns say why they are empty.
#
#   access_benchmark.sh <access_profile_target> <access_benchmark>
#
# Writes access_counters.csv beside the benchmark's tables in $KCONFORM_REPORT_DIR (a temporary
# folder without one). Exit status: the benchmark's (77 without a GPU).
set -uo pipefail
target=${1:?access_profile_target}; benchmark=${2:?access_benchmark}
here=$(cd "$(dirname "$0")" && pwd)
out=${KCONFORM_REPORT_DIR:-}
if [ -z "$out" ]; then out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi
mkdir -p "$out"
counters="$out/access_counters.csv"
# The benchmark names its metrics (one replay pass of each launch: benchmarks/access_benchmark.cpp says why).
started_ms=$(($(date +%s%N) / 1000000))
if metrics=$("$benchmark" --metrics) && [ -n "$metrics" ]; then
  # shellcheck disable=SC2046  # one word per launch field, by design
  "$here/../ctest_config/ncu_collect.sh" "$metrics" '.*' "$target" $("$benchmark" --launches) >"$counters"
  status=$?
else
  echo "$benchmark --metrics failed: no metrics to collect" >"$counters"
  status=1
fi
# Where the benchmark's time goes (issue 21): the counters' Nsight Compute run is its first stage.
echo "[access benchmark] counters collected by ncu in $(($(date +%s%N) / 1000000 - started_ms)) ms (exit $status)" >&2
if [ $status -eq 0 ]; then
  echo "counters: $(($(wc -l <"$counters") - 1)) values in $counters"
  export KCONFORM_ACCESS_COUNTERS="$counters"
else
  echo "counters not collected (exit $status): $(head -n 1 "$counters")"
  rm -f "$counters"
fi
"$benchmark"
