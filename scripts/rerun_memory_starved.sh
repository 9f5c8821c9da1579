#!/usr/bin/env bash
# rerun_memory_starved.sh <ctest project> <resource spec> <students.tsv>
#
# grade.sh's last phase (issue 33: one student never costs another a point, in any group). The runner
# runs a case that failed out of device memory again, in a fresh process, after 2, 4 and 8 s
# (KCONFORM_OOM_RETRIES=3); a neighbour that hoards memory in every fresh process of its own can keep the
# device full longer than that (measured on an H100 at 9a4901d: `correct`'s 256 MiB Large case failed all
# 4 runs beside allocates_everything, 319 MiB free, and lost 0.09 points). Such cases are listed by the
# runner in <student dir>/run/memory_starved.tsv (KCONFORM_MEMORY_STARVED_FILE: <runner name> <tab>
# <case> <tab> starved). Here, once the batch has ended, each listed test runs again, one at a time: no
# neighbour is left on its GPU, so what it then reports is what it would have reported graded alone,
# and replaces the first run's reports (units/<name>.*). Each test runs again at most once.
# Not a student the runner killed a process of for device memory (a line <tab> memory_kill): its own
# processes fill the device as much as a neighbour's would, so its starved cases are its own doing, and
# run again alone they starve again (measured on an H100: allocates_everything's values test, 48-85 s).
#
# <students.tsv>: one line per student, <name> <tab> <student dir>; the CTest test of runner name
# grade.<x> is <name>.<x> (grade.sh's naming). The test's hung cases of the first run are taken out of
# the student's hang budget (run/hangs.tsv, keyed by runner name) before it runs again, so its second run
# spends the budget as its first did, not twice. Each student's list is kept as
# run/memory_starved.first-run.tsv. Prints what it ran again; the output of ctest goes to
# <ctest project>/ctest-rerun.log. Exit 0 (the students' verdicts are in their reports), 2 on bad usage.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: rerun_memory_starved.sh <ctest project> <resource spec> <students.tsv>" >&2; exit 2; }
project=$1 spec=$2 students=$3
[ -d "$project" ] && [ -f "$students" ] || { echo "rerun_memory_starved.sh: no $project or $students" >&2; exit 2; }

tests=()
while IFS=$'\t' read -r name dir; do
  [ -n "$name" ] || continue
  starved="$dir/run/memory_starved.tsv"
  [ -s "$starved" ] || continue
  mv "$starved" "$dir/run/memory_starved.first-run.tsv"
  starved="$dir/run/memory_starved.first-run.tsv"
  if kills=$(awk -F'\t' '$3 == "memory_kill"' "$starved" | wc -l) && [ "$kills" -gt 0 ]; then
    echo "not running $name's tests again: the runner killed $kills of its cases' processes for device memory," \
      "so its own processes may have filled the device"
    continue
  fi
  while IFS= read -r runner_name; do
    tests+=("$name.${runner_name#grade.}")
    if [ -f "$dir/run/hangs.tsv" ]; then
      awk -F'\t' -v unit="$runner_name" '$1 != unit' "$dir/run/hangs.tsv" >"$dir/run/hangs.tsv.kept" &&
        mv "$dir/run/hangs.tsv.kept" "$dir/run/hangs.tsv"
    fi
  done < <(awk -F'\t' '$3 == "starved" { print $1 }' "$starved" | sort -u)
done <"$students"

[ ${#tests[@]} -gt 0 ] || exit 0
# Names are the students' own (file names): every regex character is escaped, and the match anchored.
regex="^($(printf '%s\n' "${tests[@]}" | sed 's/[][\.^$*+?(){}|/]/\\&/g' | paste -sd'|' -))\$"
echo "running ${#tests[@]} test(s) again, alone, after the batch: every run of a case failed out of device memory beside it:" \
  "${tests[*]}"
ctest --test-dir "$project" --resource-spec-file "$spec" -R "$regex" -j 1 >"$project/ctest-rerun.log" 2>&1
ran=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$project/ctest-rerun.log")
[ "$ran" -eq ${#tests[@]} ] ||
  echo "rerun_memory_starved.sh: ctest ran $ran of the ${#tests[@]} test(s) ($project/ctest-rerun.log)" >&2
exit 0
