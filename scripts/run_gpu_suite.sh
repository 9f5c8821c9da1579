#!/usr/bin/env bash
# The main job: the whole kconform run on this machine's GPU, with a report.
#
#   scripts/run_gpu_suite.sh [report-dir]        (default: reports/<date>-<gpu>)
#
# Configures and builds the `gpu` preset (native architecture), writes a CTest resource spec for
# the GPUs present (KCONFORM_GPU_SLOTS processes per GPU, default 4), runs every test (conformance,
# known-bad, sanitizers, benchmarks) and writes to the report folder: summary.md (GPU, driver,
# counts of CTest units and of cases, processes, wall times, the ten slowest units, benchmark
# tables), ctest.log, junit.xml (one testcase per unit), cases.xml (one testcase per case, merged
# from units/), units/ (each unit's JUnit and statistics, written by tools/runner), build.log,
# nvidia-smi.txt, resources.json, each benchmark's .md/.csv, and failures/ (the data of each
# failed comparison: inputs, expected, actual).
# Extra arguments after the folder go to ctest (e.g. -L reduction, or -LE benchmark).
# Split across machines: KCONFORM_SHARD=i/N runs every N-th test from the i-th (1-based; CTest's
# -I i,,N); merge the reports with scripts/merge_reports.sh.
# Exit status: ctest's (non-zero if any test failed or the build broke).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
slug=$(echo "${gpu_name:-no-gpu}" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-')
out=${1:-reports/$(date +%Y%m%d-%H%M%S)-$slug}
shift || true
mkdir -p "$out"
out=$(cd "$out" && pwd)

# A missing or broken GPU must fail this run, not skip its way to green.
export KCONFORM_REQUIRE_GPU=1
export KCONFORM_REPORT_DIR="$out"

nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || echo "nvidia-smi failed: is there a GPU?" >>"$out/nvidia-smi.txt"
slots=${KCONFORM_GPU_SLOTS:-4}
ctest_config/make_resource_spec.sh "$out/resources.json" "$slots"
shard_args=()
if [ -n "${KCONFORM_SHARD:-}" ]; then
  shard_args=(-I "${KCONFORM_SHARD%/*},,${KCONFORM_SHARD#*/}")
fi

t0=$(date +%s)
threads=$(( $(nproc) / slots )); [ "$threads" -ge 1 ] || threads=1
{ cmake --preset gpu -DKCONFORM_GPU_SLOTS="$slots" -DKCONFORM_REFERENCE_THREADS="$threads" && cmake --build --preset gpu; } >"$out/build.log" 2>&1
build_status=$?
t1=$(date +%s)
rm -rf build/gpu/gtest-xml build/gpu/units  # this run's verdicts only
ctest_status=1
if [ $build_status -eq 0 ]; then
  ctest --preset gpu --resource-spec-file "$out/resources.json" --output-junit "$out/junit.xml" "${shard_args[@]}" "$@" >"$out/ctest.log" 2>&1
  ctest_status=$?
fi
t2=$(date +%s)
[ -d build/gpu/gtest-xml ] && rm -rf "$out/gtest-xml" && cp -r build/gpu/gtest-xml "$out/gtest-xml"  # CPU tests

scripts/summarise_run.sh "$out" "$gpu_name" "$((t1 - t0))" "$build_status" "$((t2 - t1))" "$ctest_status" "$*" >"$out/summary.md"
cat "$out/summary.md"
if [ $build_status -ne 0 ]; then
  echo "BUILD FAILED: last lines of $out/build.log"
  tail -n 40 "$out/build.log"
  exit $build_status
fi
exit $ctest_status
