#!/usr/bin/env bash
# The grader's GPU run: configures and builds the suite for this machine's GPU, then runs
# `ctest --preset grading` (the example submissions of tests/submissions against expected.tsv, the
# neighbours and the class of 30, the grading CPU tests), and writes what it saw to one folder.
#
#   scripts/run_grading_suite.sh [out dir] [ctest arguments...]
#   scripts/run_grading_suite.sh reports/grading -R 'grading.examples.gpu.reduction|grading.neighbours'
#   scripts/run_grading_suite.sh reports/grading-1 --part 1     (then --part 2, 3 and 4)
#
# The whole preset takes longer than one 10-minute device call (about 20 min of tests on one H100 at
# 3ca004f; about 23 min on 4 H100s at b498e02 and 5c2f5d3): --part k runs the k-th of four parts that
# together run every test of it once (ctest_config/grading_parts.sh, each under 7 minutes of tests
# where last measured, under 8 with a fresh build), one device call each; or narrow it with -R yourself. Writes
# <out>/build.log, ctest.log, junit.xml, and each test's grading folder as <test>.tgz (class.csv,
# every student's report.md, results.json and case records). Exit: ctest's status.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/reports/grading-$(date +%Y%m%d-%H%M%S)}
case "$out" in -*) echo "run_grading_suite.sh: the first argument is the out dir, not an option ($out)" >&2; exit 2 ;; esac
shift || true
if [ "${1:-}" = --part ]; then
  # shellcheck source=../ctest_config/grading_parts.sh
  . "$root/ctest_config/grading_parts.sh"
  grading_part_args "${2:-}" || { echo "run_grading_suite.sh: --part takes 1, 2, 3 or 4" >&2; exit 2; }
  shift 2
  set -- "${grading_part[@]}" "$@"
fi
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$root"
export KCONFORM_REQUIRE_GPU=1
started=$(date +%s)
# The GPU grading tests run one at a time, each grading its batch on the whole host. Side by side, one
# per GPU (KCONFORM_GRADING_SIDE_BY_SIDE=1: KCONFORM_ALONE_PER_GPU, tests/grading/CMakeLists.txt) gained
# nothing where measured: on 4 H100s at 5c2f5d3, four families' batches at once took 170-217 s each
# against 41-64 s one at a time, about the sum, because grading is bound by CUDA start-ups (two per
# grading process, judge and executor), which the driver does one at a time for the whole host
# (docs/architecture.md, "Start-up"); and beside other batches the neighbours' checks would no longer
# grade anyone alone.
slots=${KCONFORM_GPU_SLOTS:-10}
gpus=$(ctest_config/visible_gpus.sh); [ "${gpus:-0}" -ge 1 ] || gpus=1
per_gpu=OFF; [ "$gpus" -gt 1 ] && [ "${KCONFORM_GRADING_SIDE_BY_SIDE:-0}" = 1 ] && per_gpu=ON
ctest_config/make_resource_spec.sh "$out/resources.json" "$slots"
{ cmake --preset gpu -DKCONFORM_GPU_SLOTS="$slots" -DKCONFORM_ALONE_PER_GPU="$per_gpu" && cmake --build --preset gpu; } \
  >"$out/build.log" 2>&1 ||
  { echo "run_grading_suite.sh: the build failed ($out/build.log)"; tail -30 "$out/build.log"; exit 2; }
built=$(date +%s)
ctest --preset grading --resource-spec-file "$out/resources.json" --output-junit "$out/junit.xml" "$@" 2>&1 |
  tee "$out/ctest.log"
status=${PIPESTATUS[0]}
finished=$(date +%s)
for folder in build/gpu/grading-examples-gpu-* build/gpu/grading-neighbours build/gpu/grading-neighbours-every-group build/gpu/grading-class-of-30; do
  [ -d "$folder" ] && tar czf "$out/$(basename "$folder").tgz" -C "$(dirname "$folder")" "$(basename "$folder")"
done
echo "build $((built - started)) s, tests $((finished - built)) s; GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); logs in $out"
exit "$status"
