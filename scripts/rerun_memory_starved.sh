#!/usr/bin/env bash
# rerun_memory_starved.sh <ctest project> <resource spec> <students.tsv>
#
# grade.sh's last phase (issue 33: one student never costs another a point, in any group). The runner
# runs a case that failed out of device memory again, in a fresh process, after 2, 4 and 8 s
# (KCONFORM_OOM_RETRIES=3); a neighbour that hoards memory in every fresh process of its own can keep the
# device full longer than that (measured on an H100 at 9a4901d: `correct`'s 256 MiB Large case failed all
# 4 runs beside allocates_everything, 319 MiB free, and lost 0.09 points). Such cases are listed by the
# runner in <student dir>/run/memory_starved.tsv (KCONFORM_MEMORY_STARVED_FILE: <runner name> <tab>
# <case> <tab> starved, and each case its process ran after it, in what the failure left: <tab>
# after_starved). Here, once the batch has ended, the listed cases of each test run again, one
# test at a time (KCONFORM_RERUN_ALONE=1, KCONFORM_GTEST_FILTER naming them): no other grading process is
# left on the GPU, so what they then report is what they would have reported graded alone. The runner
# puts their verdicts in place of the first run's in the unit's reports (units/<name>.*), every other
# case's kept, and runs them with no retry, no list and no hang budget (only they run, each under its
# deadline, the hang streak still on). Each test runs again at most once.
# Not a student the runner killed a process of for device memory (a line <tab> memory_kill): its own
# processes fill the device as much as a neighbour's would, so its starved cases are its own doing, and
# run again alone they starve again (measured on an H100: allocates_everything's values test, 48-85 s).
# The whole phase has KCONFORM_RERUN_ALONE_LIMIT_S (default 600 s): a test that would start past it is
# not run again, one running at it is stopped (its first run's reports stand).
#
# <students.tsv>: one line per student, <name> <tab> <student dir>; the CTest test of runner name
# grade.<x> is <name>.<x> (grade.sh's naming). Each student's list is kept as
# run/memory_starved.first-run.tsv, and what became of each listed test is written to
# run/memory_starved.rerun.tsv (<runner name> <tab> ran | not run: <why>), which report.md reads.
# ctest's output goes to <ctest project>/ctest-rerun.log. Exit 0 (the students' verdicts are in their
# reports), 2 on bad usage.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: rerun_memory_starved.sh <ctest project> <resource spec> <students.tsv>" >&2; exit 2; }
project=$1 spec=$2 students=$3
[ -d "$project" ] && [ -f "$students" ] || { echo "rerun_memory_starved.sh: no $project or $students" >&2; exit 2; }
limit=${KCONFORM_RERUN_ALONE_LIMIT_S:-600}
started=$(date +%s)
: >"$project/ctest-rerun.log"

escape() { printf '%s' "$1" | sed 's/[][\.^$*+?(){}|/]/\\&/g'; }
while IFS=$'\t' read -r name dir; do
  [ -n "$name" ] || continue
  starved="$dir/run/memory_starved.tsv"
  [ -s "$starved" ] || continue
  mv "$starved" "$dir/run/memory_starved.first-run.tsv"
  starved="$dir/run/memory_starved.first-run.tsv"
  record="$dir/run/memory_starved.rerun.tsv"
  : >"$record"
  kills=$(awk -F'\t' '$3 == "memory_kill"' "$starved" | wc -l)
  while IFS= read -r runner_name; do
    test="$name.${runner_name#grade.}"
    if [ "$kills" -gt 0 ]; then
      printf '%s\tnot run: the runner killed %s of its processes for device memory\n' "$runner_name" "$kills" >>"$record"
      echo "not running $test again: the runner killed $kills of $name's processes for device memory," \
        "so its own processes may have filled the device"
      continue
    fi
    left=$((limit - ($(date +%s) - started)))
    if [ "$left" -le 0 ]; then
      printf '%s\tnot run: the phase'"'"'s %s s were spent\n' "$runner_name" "$limit" >>"$record"
      echo "not running $test again: the phase's $limit s (KCONFORM_RERUN_ALONE_LIMIT_S) were spent"
      continue
    fi
    filter=$(awk -F'\t' -v unit="$runner_name" '$1 == unit && ($3 == "starved" || $3 == "after_starved") && !seen[$2]++ { print $2 }' \
      "$starved" | paste -sd: -)
    echo "running $test again, alone: $(echo "$filter" | tr ':' '\n' | wc -l) case(s) failed out of device memory" \
      "on every run beside the batch, or ran after one in its process"
    before=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$project/ctest-rerun.log")
    KCONFORM_RERUN_ALONE=1 KCONFORM_GTEST_FILTER="$filter" timeout -k 10 "$left" \
      ctest --test-dir "$project" --resource-spec-file "$spec" -R "^$(escape "$test")\$" -j 1 >>"$project/ctest-rerun.log" 2>&1
    status=$?
    after=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$project/ctest-rerun.log")
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      printf '%s\tnot run: stopped at the phase'"'"'s %s s\n' "$runner_name" "$limit" >>"$record"
      echo "rerun_memory_starved.sh: $test was stopped at the phase's $limit s" >&2
    elif [ "$after" -ne $((before + 1)) ]; then
      printf '%s\tnot run: ctest ran no test of that name\n' "$runner_name" >>"$record"
      echo "rerun_memory_starved.sh: ctest ran no test $test ($project/ctest-rerun.log)" >&2
    else
      printf '%s\tran\n' "$runner_name" >>"$record"
    fi
  done < <(awk -F'\t' '$3 == "starved" { print $1 }' "$starved" | awk '!seen[$0]++')
done <"$students"
exit 0
