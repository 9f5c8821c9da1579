#!/usr/bin/env bash
# compare_runs.sh <one-machine report> <shard report>...
#
# Checks that a run split into shards (scripts/run_gpu_suite.sh with KCONFORM_SHARD=i/N, one report
# folder each) ran what one machine's run of the same commit ran: every CTest test (junit.xml) and
# every case (units/*.xml, written by tools/runner) in exactly one shard, none missing, none extra,
# each with the same verdict. The shards' folders are compared, not their merge: merge_reports.sh
# copies units/ by file name, so a unit run twice would already be one file there.
#
# Prints a table (CTest tests and cases: in the one-machine run, in the shards, lost, run twice,
# extra, different verdict, different timing verdict) and the first differences of each kind.
#
# A timing verdict: a perf test or case (`<family>.perf.<unit>`: points against their stored
# baseline, a seed's in-run ratios) that passed in one run and failed in the other. It is one card's
# measurement at one time, and two runs of the same tree can read a point on either side of its
# threshold (on 2 H100s at 545767d a 1024² ATAX point read +4.3% in a shard, beside the other card's
# alone tests, and +2.5% alone). Such a difference is listed with the failure's first line (SLOW,
# or a wrong result while timed, which the perf units also fail on) and not counted against the
# split: the run that failed it already failed (its CTest test, run_shards_on_host.sh's exit, the CI
# workflow's merge job), so nothing is let through. Everything else is compared exactly: which tests
# and cases ran, every correctness verdict, and a perf test or case that was skipped or not run in
# one run only.
#
# The one-machine run must be of one GPU (run_shards_on_host.sh --single pins it to GPU 0), as each
# shard is: on several GPUs its perf units run once per GPU as <unit>.gpu<k> (KconformTesting.cmake,
# EVERY_GPU), which a shard's do not. Both sides must also pack alike (KCONFORM_PACK_SECONDS, a whole
# run's 12 by default): a pack is one CTest test holding several units, so runs packed differently list
# different CTest tests, though the same cases.
# Exit: 0 when nothing is lost, run twice, extra or of another verdict (timing verdicts aside), 1
# otherwise, 2 on bad usage or a report without junit.xml.
set -u
[ $# -ge 2 ] || { echo "usage: compare_runs.sh <one-machine report> <shard report>..."; exit 2; }
single=$1
shift
for report in "$single" "$@"; do
  [ -f "$report/junit.xml" ] || { echo "compare_runs: $report has no junit.xml"; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# CTest's junit.xml: one <testcase name="..." ... status="run|fail|notrun|disabled"> per test (its
# attributes may span lines: the file is read as one line).
tests_of() {
  tr '\n\t' '  ' <"$1/junit.xml" | sed 's/<testcase /\n<testcase /g' | grep '^<testcase ' |
    sed -nE 's/^<testcase [^>]*name="([^"]*)"[^>]*status="([^"]*)".*/\1\t\2/p'
}
# tools/runner's units/<unit>.xml: <testcase classname="C" name="N" time="T" status="passed|failed|skipped">.
cases_of() {
  for f in "$1"/units/*.xml; do
    [ -f "$f" ] || continue
    unit=$(basename "$f" .xml)
    sed -nE "s/^ *<testcase classname=\"([^\"]*)\" name=\"([^\"]*)\" time=\"[^\"]*\" status=\"([^\"]*)\".*/$unit\t\1.\2\t\3/p" "$f"
  done | awk -F'\t' '{print $1 "/" $2 "\t" $3}'
}
. "$(dirname "$0")/xml_text.sh"  # xml_text
# The first line of each failed case's message (<failure message="..."> on the line after its
# <testcase>), "<case>\t<line>", for the timing listing, the line's XML entities read back (xml_text;
# the case's name as cases_of gives it).
failures_of() {
  local raw=$work/failures.raw
  raw_failures_of "$1" >"$raw"
  paste <(cut -f1 "$raw") <(cut -f2- "$raw" | xml_text)
}
raw_failures_of() {
  for f in "$1"/units/*.xml; do
    [ -f "$f" ] || continue
    awk -v unit="$(basename "$f" .xml)" '
      match($0, /<testcase classname="[^"]*" name="[^"]*"/) {
        key = substr($0, RSTART, RLENGTH); sub(/^<testcase classname="/, "", key); sub(/" name="/, ".", key); sub(/"$/, "", key)
        key = unit "/" key
      }
      match($0, /<failure message="[^"]*"/) && key != "" {
        said = substr($0, RSTART + 18, RLENGTH - 19); sub(/&#(10|13|[xX]0*[aAdD]);.*/, "", said)
        print key "\t" said; key = ""
      }' "$f"
  done
}

tests_of "$single" | sort >"$work/single.tests"
cases_of "$single" | sort >"$work/single.cases"
failures_of "$single" >"$work/failures"
: >"$work/shards.tests"
: >"$work/shards.cases"
for report in "$@"; do
  tests_of "$report" >>"$work/shards.tests"
  cases_of "$report" >>"$work/shards.cases"
  failures_of "$report" >>"$work/failures"
done

status=0
n() { wc -l <"$1" | tr -d ' '; }  # lines in a file
printf '| what | one machine | shards | lost | run twice | extra | different verdict | different timing verdict |\n|---|---|---|---|---|---|---|---|\n'
for kind in tests cases; do
  a="$work/single.$kind" b="$work/shards.$kind"
  cut -f1 "$b" | sort | uniq -d >"$work/twice.$kind"
  cut -f1 "$a" | sort -u >"$work/a.names"
  cut -f1 "$b" | sort -u >"$work/b.names"
  comm -23 "$work/a.names" "$work/b.names" >"$work/lost.$kind"
  comm -13 "$work/a.names" "$work/b.names" >"$work/extra.$kind"
  # Same name, another verdict (names run twice are reported as such, not here).
  # Timing verdicts apart (the header says which and why): a perf test or unit, passed in one run and
  # failed in the other.
  sort -u "$b" | join -t $'\t' "$a" - | awk -F'\t' '$2 != $3 {print $1 "\t" $2 " -> " $3}' >"$work/all_differ.$kind"
  timing=$'^[^./]+\\.perf\\.[^\t]*\t(run -> fail|fail -> run|passed -> failed|failed -> passed)$'
  grep -E "$timing" "$work/all_differ.$kind" >"$work/timing.$kind"
  grep -vE "$timing" "$work/all_differ.$kind" >"$work/differ.$kind"
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$kind" "$(n "$a")" "$(n "$b")" "$(n "$work/lost.$kind")" \
    "$(n "$work/twice.$kind")" "$(n "$work/extra.$kind")" "$(n "$work/differ.$kind")" "$(n "$work/timing.$kind")"
  for problem in lost twice extra differ; do
    [ -s "$work/$problem.$kind" ] || continue
    status=1
    echo "$kind $problem (first 10):" >&2
    head -10 "$work/$problem.$kind" | sed 's/^/  /' >&2
  done
  if [ -s "$work/timing.$kind" ]; then
    echo "$kind with another timing verdict (listed, not counted: the run that failed it failed; first 10):" >&2
    head -10 "$work/timing.$kind" | while IFS=$'\t' read -r name change; do
      said=$(awk -F'\t' -v k="$name" '$1 == k { print $2; exit }' "$work/failures")
      printf '  %s\t%s%s\n' "$name" "$change" "${said:+	($said)}"
    done >&2
  fi
done
timing_tests=$(n "$work/timing.tests") timing_cases=$(n "$work/timing.cases")
if [ $status -eq 0 ] && [ "$timing_tests$timing_cases" = 00 ]; then
  echo "compare_runs: the shards ran what the one-machine run ran, with the same verdicts"
elif [ $status -eq 0 ]; then
  echo "compare_runs: the shards ran what the one-machine run ran, with the same verdicts but timing ones: $timing_tests perf test(s) and $timing_cases perf case(s) passed in one run and failed in the other (listed above; the run that failed them failed)"
fi
exit $status
