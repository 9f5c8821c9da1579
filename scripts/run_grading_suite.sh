#!/usr/bin/env bash
# The grader's GPU run: configures and builds the suite for this machine's GPU, then runs
# `ctest --preset grading` (the example submissions of tests/submissions against expected.tsv, the
# neighbours and the class of 30, the grading CPU tests), and writes what it saw to one folder.
#
#   scripts/run_grading_suite.sh [out dir] [ctest arguments...]
#   scripts/run_grading_suite.sh reports/grading -R 'grading.examples.gpu.reduction|grading.neighbours'
#
# The whole preset takes longer than one 10-minute device call: narrow it with -R. Writes
# <out>/build.log, ctest.log, junit.xml, and each test's grading folder as <test>.tgz (class.csv,
# every student's report.md, results.json and case records). Exit: ctest's status.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/reports/grading-$(date +%Y%m%d-%H%M%S)}
shift || true
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$root"
export KCONFORM_REQUIRE_GPU=1
started=$(date +%s)
{ cmake --preset gpu && cmake --build --preset gpu; } >"$out/build.log" 2>&1 ||
  { echo "run_grading_suite.sh: the build failed ($out/build.log)"; tail -30 "$out/build.log"; exit 2; }
built=$(date +%s)
ctest --preset grading --output-junit "$out/junit.xml" "$@" 2>&1 | tee "$out/ctest.log"
status=${PIPESTATUS[0]}
finished=$(date +%s)
for folder in build/gpu/grading-examples-gpu-* build/gpu/grading-neighbours build/gpu/grading-neighbours-every-group build/gpu/grading-class-of-30; do
  [ -d "$folder" ] && tar czf "$out/$(basename "$folder").tgz" -C "$(dirname "$folder")" "$(basename "$folder")"
done
echo "build $((built - started)) s, tests $((finished - built)) s; GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); logs in $out"
exit "$status"
