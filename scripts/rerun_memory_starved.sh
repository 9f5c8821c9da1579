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
# after_starved). Here, once the batch has ended, the listed cases of each test run again, one test at
# a time (KCONFORM_RERUN_ALONE=1, KCONFORM_RERUN_CASES naming them): no other grading process is left
# on the GPU, so what they then report is what they would have reported graded alone. The runner puts
# their verdicts in place of the first run's in the unit's reports (units/<name>.*), every other case's
# kept, and runs them with no retry and no list, under the student's hang budget and streak as in the
# first run (their own hangs of the first run taken out of run/hangs.tsv first): a run alone is never
# more lenient than the first run, or a submission could fake a full device to buy hangs. Each test
# runs again at most once; the students with the fewest listed cases first (a neighbour's victim has one
# or a few; a submission faking a full device, many).
# Not a student the runner killed a process of for device memory (a line <tab> memory_kill): its own
# processes fill the device as much as a neighbour's would, so its starved cases are its own doing, and
# run again alone they starve again (measured on an H100: allocates_everything's values test, 48-85 s).
# The whole phase has KCONFORM_RERUN_ALONE_LIMIT_S (default 600 s), and each student a fair share of
# what is left (that over the students left, at least 60 s: a performance case's deadline), which its
# tests spend in turn: a test that would start past the limit or its student's share is not run again,
# and one running past the share is stopped with every process of its session (its first run's
# reports stand). So no submission's run alone, however many tests it lists, spends another's time.
#
# <students.tsv>: one line per student, <name> <tab> <student dir>; the CTest test of runner name
# grade.<x> is <name>.<x> (grade.sh's naming). Each student's list is kept as
# run/memory_starved.first-run.tsv, and what became of each listed test is written to
# run/memory_starved.rerun.tsv (<runner name> <tab> ran | not run: <why>), which report.md reads: ran
# only where the runner recorded a merge (run/memory_starved.tsv.merged). ctest's output goes to
# <ctest project>/ctest-rerun.log. Exit 0 (the students' verdicts are in their reports), 2 on bad usage.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: rerun_memory_starved.sh <ctest project> <resource spec> <students.tsv>" >&2; exit 2; }
project=$1 spec=$2 students=$3
[ -d "$project" ] && [ -f "$students" ] || { echo "rerun_memory_starved.sh: no $project or $students" >&2; exit 2; }
limit=${KCONFORM_RERUN_ALONE_LIMIT_S:-600}
started=$(date +%s)
: >"$project/ctest-rerun.log"

escape() { printf '%s' "$1" | sed 's/[][\.^$*+?(){}|/]/\\&/g'; }
note() { printf '%s\t%s\n' "$2" "$3" >>"$1/run/memory_starved.rerun.tsv"; }  # note <student dir> <runner name> <outcome>

# The tests to run again: <student's cases> <tab> <name> <tab> <dir> <tab> <runner name> <tab> <filter>.
queue="$project/rerun-queue.tsv"
: >"$queue"
while IFS=$'\t' read -r name dir; do
  [ -n "$name" ] || continue
  listed="$dir/run/memory_starved.tsv"
  [ -s "$listed" ] || continue
  mv "$listed" "$dir/run/memory_starved.first-run.tsv"
  listed="$dir/run/memory_starved.first-run.tsv"
  rm -f "$dir/run/memory_starved.tsv.merged"
  : >"$dir/run/memory_starved.rerun.tsv"
  kills=$(awk -F'\t' '$3 == "memory_kill"' "$listed" | wc -l)
  total=$(awk -F'\t' '$3 == "starved" || $3 == "after_starved"' "$listed" | wc -l)  # the student's place in the queue
  while IFS= read -r runner_name; do
    if [ "$kills" -gt 0 ]; then
      note "$dir" "$runner_name" "not run: the runner killed $kills of its processes for device memory"
      echo "not running $name.${runner_name#grade.} again: the runner killed $kills of $name's processes for device" \
        "memory, so its own processes may have filled the device"
      continue
    fi
    cases=$(awk -F'\t' -v unit="$runner_name" \
      '$1 == unit && ($3 == "starved" || $3 == "after_starved") && !seen[$2]++ { print $2 }' "$listed")
    printf '%s\t%s\t%s\t%s\t%s\n' "$total" "$name" "$dir" "$runner_name" "$(echo "$cases" | paste -sd: -)" >>"$queue"
  done < <(awk -F'\t' '$3 == "starved" && !seen[$1]++ { print $1 }' "$listed")
done <"$students"

students_left=$(cut -f2 "$queue" | sort -u | wc -l)
session_file="$project/rerun-session"
current='' student_end=0
while IFS=$'\t' read -r count name dir runner_name filter; do
  test="$name.${runner_name#grade.}"
  now=$(date +%s)
  if [ "$name" != "$current" ]; then  # a student's share: what is left over the students left
    current=$name
    left=$((limit - (now - started)))
    share=$((students_left > 0 ? left / students_left : left))
    [ "$share" -ge 60 ] || share=$((left < 60 ? left : 60))
    student_end=$((now + share))
    students_left=$((students_left - 1))
  fi
  budget=$((student_end - now))
  phase_left=$((limit - (now - started)))
  [ "$budget" -le "$phase_left" ] || budget=$phase_left
  if [ "$budget" -le 0 ]; then
    note "$dir" "$runner_name" "not run: the phase's $limit s, or its share of them, were spent"
    echo "not running $test again: the phase's $limit s (KCONFORM_RERUN_ALONE_LIMIT_S), or $name's share, were spent"
    continue
  fi
  # The listed cases' own hangs of the first run leave the hang budget; the others' stay.
  if [ -f "$dir/run/hangs.tsv" ]; then
    awk -F'\t' -v unit="$runner_name" -v cases="$filter" '
      BEGIN { n = split(cases, list, ":"); for (i = 1; i <= n; i++) listed[list[i]] = 1 }
      !($1 == unit && ($2 in listed))' "$dir/run/hangs.tsv" >"$dir/run/hangs.tsv.kept" &&
      mv "$dir/run/hangs.tsv.kept" "$dir/run/hangs.tsv"
  fi
  echo "running $test again, alone: $(echo "$filter" | tr ':' '\n' | wc -l) case(s) failed out of device memory on every run beside the batch," \
    "or ran after one in its process (at most $budget s)"
  merged_before=$(cat "$dir/run/memory_starved.tsv.merged" 2>/dev/null | wc -l)
  # A session of its own (its id written by the shell that starts it), so that a test stopped at its
  # share takes every process it started with it: the runner's grading program runs in a process
  # group of its own, which killing ctest would leave behind.
  rm -f "$session_file"
  KCONFORM_RERUN_ALONE=1 KCONFORM_RERUN_CASES="$filter" timeout -s KILL "$budget" setsid -w sh -c 'echo $$ >"$0"; exec "$@"' \
    "$session_file" ctest --test-dir "$project" --resource-spec-file "$spec" -R "^$(escape "$test")\$" -j 1 \
    </dev/null >>"$project/ctest-rerun.log" 2>&1
  status=$?
  [ -s "$session_file" ] && pkill -KILL -s "$(cat "$session_file")" 2>/dev/null  # what it left running
  merged_after=$(cat "$dir/run/memory_starved.tsv.merged" 2>/dev/null | wc -l)
  if [ "$status" -eq 137 ]; then
    note "$dir" "$runner_name" "not run: stopped at its student's share of the phase ($budget s left of it)"
    echo "rerun_memory_starved.sh: $test was stopped at $name's share of the phase ($budget s left of it)" >&2
  elif [ "$merged_after" -le "$merged_before" ]; then
    note "$dir" "$runner_name" "not run: the run alone recorded no verdict (ctest-rerun.log)"
    echo "rerun_memory_starved.sh: $test recorded no merged verdict ($project/ctest-rerun.log)" >&2
  else
    note "$dir" "$runner_name" "ran"
  fi
done < <(sort -t$'\t' -k1,1n -k2,2 -s "$queue")
rm -f "$session_file"
exit 0
