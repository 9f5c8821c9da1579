#!/usr/bin/env bash
# The main job: the whole kconform run on this machine's GPU, with a report.
#
#   scripts/run_gpu_suite.sh [report-dir]        (default: reports/<date>-<gpu>)
#
# Configures and builds the `gpu` preset (native architecture), writes a CTest resource spec for
# the GPUs present, runs every test (conformance, known-bad, sanitizers, benchmarks) and writes to
# the report folder: summary.md (GPU, driver, counts, wall times, benchmark tables), ctest.log,
# junit.xml, build.log, nvidia-smi.txt, resources.json, each benchmark's .md/.csv, gtest-xml/ (the
# per-case verdicts) and failures/ (the data of each failed comparison: inputs, expected, actual).
# Extra arguments after the folder go to ctest (e.g. -L reduction, or -LE benchmark).
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
ctest_config/make_resource_spec.sh "$out/resources.json" 16

t0=$(date +%s)
{ cmake --preset gpu && cmake --build --preset gpu; } >"$out/build.log" 2>&1
build_status=$?
t1=$(date +%s)
rm -rf build/gpu/gtest-xml  # this run's verdicts only
ctest_status=1
if [ $build_status -eq 0 ]; then
  ctest --preset gpu --resource-spec-file "$out/resources.json" --output-junit "$out/junit.xml" "$@" >"$out/ctest.log" 2>&1
  ctest_status=$?
fi
t2=$(date +%s)
[ -d build/gpu/gtest-xml ] && rm -rf "$out/gtest-xml" && cp -r build/gpu/gtest-xml "$out/gtest-xml"

# Counts from the JUnit report: <testsuite ... tests="N" failures="F" ... skipped="S" ...>
# (CTest writes each attribute on its own line, so join the lines first.)
attr() { tr '\n\t' '  ' <"$out/junit.xml" 2>/dev/null | grep -o "<testsuite [^>]*" | grep -oE " $1=\"[0-9]+\"" | grep -oE '[0-9]+' | head -n 1; }
tests=$(attr tests); failures=$(attr failures); skipped=$(attr skipped); disabled=$(attr disabled)
tests=${tests:-0}; failures=${failures:-0}; skipped=${skipped:-0}; disabled=${disabled:-0}
passed=$((tests - failures - skipped - disabled))

{
  echo "# kconform GPU run"
  echo
  echo "- GPU: ${gpu_name:-none found}"
  echo "- driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "- commit: ${KCONFORM_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo 'unknown (not a git checkout; set KCONFORM_COMMIT)')}"
  echo "- command: scripts/run_gpu_suite.sh $*"
  echo "- build: $((t1 - t0)) s (status $build_status); tests: $((t2 - t1)) s (ctest status $ctest_status)"
  echo
  echo "$passed passed, $failures failed, $skipped skipped (of $tests)"
  echo
  if [ "$failures" -gt 0 ] || [ $ctest_status -ne 0 ]; then
    echo "## Failed or not run"
    echo '```'
    sed -n '/The following tests FAILED/,$p' "$out/ctest.log" | head -n 60
    echo '```'
  fi
  # Each known-bad row's verdict (RecordProperty "verdict" / "first_catch" in its gtest XML).
  verdicts=$(find "$out/gtest-xml" -name '*.xml' 2>/dev/null | sort | while read -r f; do
    [ -f "$f" ] || continue
    v=$(grep -o 'name="verdict" value="[^"]*"' "$f" | head -n 1 | sed 's/.*value="//; s/"$//')
    [ -n "$v" ] || continue
    t=$(grep -o '<testcase name="[^"]*"' "$f" | head -n 1 | sed 's/.*name="//; s/"$//')
    c=$(grep -o 'name="first_catch" value="[^"]*"' "$f" | head -n 1 | sed 's/.*value="//; s/"$//' | cut -c1-160)
    echo "| ${t##*/} | $v | $c |"
  done)
  if [ -n "$verdicts" ]; then
    echo "## Known-bad rows (value checks)"
    echo
    echo "| row | verdict | first catch |"
    echo "|---|---|---|"
    echo "$verdicts"
    echo
  fi
  for table in "$out"/*_benchmark.md; do
    [ -f "$table" ] || continue
    echo
    sed -n '1,/^## All measurements/p' "$table" | sed '$d'
  done
} >"$out/summary.md"
cat "$out/summary.md"
if [ $build_status -ne 0 ]; then
  echo "BUILD FAILED: last lines of $out/build.log"
  tail -n 40 "$out/build.log"
  exit $build_status
fi
exit $ctest_status
