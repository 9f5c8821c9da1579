#!/usr/bin/env bash
# merge_reports.sh <merged dir> <report dir>...
#
# Merges the reports of a run split across machines (scripts/run_gpu_suite.sh with KCONFORM_SHARD=i/N
# on each) into one: units/ (every unit's JUnit and statistics), junit.xml (each machine's CTest
# <testsuite>), cases.xml and summary.md, as one machine's run would have written them. Failure
# dumps and benchmark tables are copied as they are. Exit status: 1 if any report is missing or any
# test failed, else 0.
set -u
merged=$1
shift
[ $# -ge 1 ] || { echo "usage: merge_reports.sh <merged dir> <report dir>..."; exit 2; }
mkdir -p "$merged/units" "$merged/failures"
rm -f "$merged/gpu_busy.csv" "$merged/ctest.log"
status=0
gpu_name="" build_s=0 test_s=0
junits=()
for report in "$@"; do
  junits+=("$report/junit.xml")
  if [ ! -f "$report/junit.xml" ]; then
    echo "merge_reports: $report has no junit.xml (did that shard run?)" >&2
    status=1
  fi
done
"$(dirname "$0")/merge_junit.sh" "kconform (merged)" "${junits[@]}" >"$merged/junit.xml"
for report in "$@"; do
  cp "$report"/units/*.xml "$report"/units/*.tsv "$merged/units/" 2>/dev/null
  cp -r "$report"/failures/. "$merged/failures/" 2>/dev/null
  cp "$report"/*_benchmark.* "$merged/" 2>/dev/null
  # Each machine's perf rows: one file per point and card, named by the card's UUID, so none overwrites another.
  mkdir -p "$merged/perf" && cp "$report"/perf/*.tsv "$merged/perf/" 2>/dev/null
  cat "$report/ctest.log" >>"$merged/ctest.log" 2>/dev/null
  # Each machine's GPU samples (index, UUID, utilization): the merged summary gives each GPU's busy share.
  cat "$report/gpu_busy.csv" >>"$merged/gpu_busy.csv" 2>/dev/null
  gpu=$(sed -n 's/^- GPU: //p' "$report/summary.md" 2>/dev/null | head -n 1)
  gpu_name="${gpu_name:+$gpu_name, }${gpu:-?}"
  t=$(sed -n 's/.*tests: \([0-9]*\) s.*/\1/p' "$report/summary.md" 2>/dev/null | head -n 1)
  [ -n "$t" ] && [ "$t" -gt "$test_s" ] && test_s=$t
  grep -q 'ctest status 0)' "$report/summary.md" 2>/dev/null || status=1
done
scripts_dir=$(cd "$(dirname "$0")" && pwd)
"$scripts_dir/summarise_run.sh" "$merged" "$gpu_name" "$build_s" 0 "$test_s" "$status" "(merged from $# reports)" >"$merged/summary.md"
cat "$merged/summary.md"
exit $status
