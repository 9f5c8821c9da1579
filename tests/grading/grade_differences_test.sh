#!/usr/bin/env bash
# grade_differences_test.sh <grade_differences.sh> <scratch dir>
#
# tests/submissions/grade_differences.sh (issue 33's neighbour comparison) on fabricated grade folders,
# so the GPU check that uses it cannot pass by comparing nothing: what must compare equal (seconds,
# messages and the performance ratio moved), what must differ (a sanitizer case's verdict, the
# performance group's score, a case recorded on one side only, results.json's score) and what must be
# refused as nothing to compare (a sanitizer tool or a listed unit with no recorded case).
# Runs on every machine (no GPU). Exit: 0 all as expected, 1 not.
set -uo pipefail
differences=$1 scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
failures=0

# grade_folder <dir> <seconds> <ratio> <racecheck status> <performance score>: one submission's
# grade.sh output, as much of it as the comparison reads.
grade_folder() {
  local dir=$1 seconds=$2 ratio=$3 race=$4 perf=$5 unit
  mkdir -p "$dir/run/units"
  printf 'small_sizes\t2\t1\nperformance\t1\t4\n' >"$dir/run/listed_units.tsv"
  cat >"$dir/run/units/grade.small_sizes.json" <<EOF
{"unit":"grade.small_sizes","processes":1,"seconds":$seconds,"cases":[
 {"name":"Grade/Small.Sum/N32","status":"passed","seconds":$seconds,"attempt":1,"message":"took $seconds s","properties":{}},
 {"name":"Grade/Small.Sum/N64","status":"passed","seconds":1,"attempt":1,"message":"","properties":{}}]}
EOF
  cat >"$dir/run/units/grade.performance.json" <<EOF
{"unit":"grade.performance","processes":1,"seconds":$seconds,"cases":[
 {"name":"Grade/Performance.Ratio/N16777216","status":"passed","seconds":3,"attempt":1,"message":"","properties":{"ratio":"$ratio"}}]}
EOF
  for unit in memcheck racecheck synccheck; do
    local status=passed
    [ $unit != racecheck ] || status=$race
    cat >"$dir/run/units/grade.sanitizer.$unit.json" <<EOF
{"unit":"grade.sanitizer.$unit","processes":1,"seconds":$seconds,"cases":[
 {"name":"Grade/Small.Sum/N33","status":"$status","seconds":2,"attempt":1,"message":"","properties":{}}]}
EOF
  done
  local sanitizer=10 total
  [ "$race" = passed ] || sanitizer=6.67
  total=$(awk -v s="$sanitizer" -v p="$perf" 'BEGIN { print 20 + s + p }')
  cat >"$dir/summary.json" <<EOF
{"student":"correct","family":"reduction","seed":"7","score":$total,"max_score":40,"verdict":"passed",
 "groups":{"small_sizes":{"score":20,"max_score":20,"counted":"cases","passed":2,"failed":0,"skipped":0,"not_counted":0},
           "sanitizer":{"score":$sanitizer,"max_score":10,"counted":"tools","passed":3,"failed":0,"skipped":0,"not_counted":0},
           "performance":{"score":$perf,"max_score":10,"counted":"cases","passed":1,"failed":0,"skipped":0,"not_counted":0}},
 "seconds":$seconds,"build":"ok"}
EOF
  cat >"$dir/results.json" <<EOF
{"score":$total,"execution_time":$seconds,"output":"ran in $seconds s","tests":[
 {"name":"Small sizes","score":20,"max_score":20,"status":"passed","output":"$seconds ms"},
 {"name":"Sanitizer","score":$sanitizer,"max_score":10,"status":"passed","output":""},
 {"name":"Performance","score":$perf,"max_score":10,"status":"passed","output":"Ratio $ratio"}]}
EOF
}

indent() { sed 's/^/    /'; }

# expect <name> <exit status wanted> <words the output must hold, or ""> <alone> <beside>
expect() {
  local name=$1 want=$2 words=$3 output status
  output=$("$differences" "$4" "$5" "$scratch/$name.counts")
  status=$?
  if [ "$status" -ne "$want" ]; then
    echo "FAILED: $name: exit $status, expected $want:"
    indent <<<"$output"
    failures=$((failures + 1))
  elif [ -n "$words" ] && ! grep -qF -- "$words" <<<"$output"; then
    echo "FAILED: $name: the output does not say '$words':"
    indent <<<"$output"
    failures=$((failures + 1))
  else
    echo "ok: $name (exit $status)"
  fi
}

grade_folder "$scratch/alone" 5 0.97 passed 10
grade_folder "$scratch/same" 9 1.08 passed 10  # seconds, messages and the ratio moved: the same grade
expect identical 0 "0 case verdict(s) and 0 group(s) differ" "$scratch/alone" "$scratch/same"
[ "$(cat "$scratch/identical.counts")" = "$(printf '6\t0\t3\t0\t0')" ] ||
  { echo "FAILED: identical: counts file holds '$(cat "$scratch/identical.counts")'"; failures=$((failures + 1)); }

grade_folder "$scratch/racy" 5 0.97 failed 10
expect sanitizer_case 1 "case grade.sanitizer.racecheck Grade/Small.Sum/N33: alone passed, beside failed" \
  "$scratch/alone" "$scratch/racy"

grade_folder "$scratch/slow" 5 1.31 passed 9.38
expect performance_score 1 "measured ratio alone 0.97, beside 1.31" "$scratch/alone" "$scratch/slow"

grade_folder "$scratch/lost_case" 5 0.97 passed 10
python3 - "$scratch/lost_case/run/units/grade.small_sizes.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cases"] = doc["cases"][:1]
json.dump(doc, open(sys.argv[1], "w"))
PY
expect case_missing_beside 1 "Grade/Small.Sum/N64: alone passed, beside no record" "$scratch/alone" "$scratch/lost_case"

grade_folder "$scratch/rerun" 5 0.97 passed 10
sed -i 's/"message":""/"message":"(run 2 times: the earlier runs failed out of device memory)"/' \
  "$scratch/rerun/run/units/grade.small_sizes.json"
expect rerun_is_no_difference 0 "1 case(s) were run again" "$scratch/alone" "$scratch/rerun"

grade_folder "$scratch/gradescope" 5 0.97 passed 10
sed -i 's/^{"score":40/{"score":39/' "$scratch/gradescope/results.json"
expect results_json_score 1 "results.json score: alone 40, beside 39" "$scratch/alone" "$scratch/gradescope"

grade_folder "$scratch/no_sanitizer" 5 0.97 passed 10
rm "$scratch/no_sanitizer/run/units/grade.sanitizer.synccheck.json"
expect no_sanitizer_alone 2 "sanitizer tool synccheck recorded no case alone" "$scratch/no_sanitizer" "$scratch/same"

grade_folder "$scratch/unit_missing" 5 0.97 passed 10
rm "$scratch/unit_missing/run/units/grade.performance.json"
expect listed_unit_missing_alone 2 "unit performance was listed alone" "$scratch/unit_missing" "$scratch/same"

mkdir -p "$scratch/nothing"
expect nothing_alone 2 "cannot compare" "$scratch/nothing" "$scratch/same"

[ $failures -eq 0 ] || { echo "FAILED: $failures check(s)"; exit 1; }
echo "PASSED: grade_differences.sh tells identical grades, differences and nothing to compare apart"
