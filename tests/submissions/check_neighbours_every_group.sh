#!/usr/bin/env bash
# check_neighbours_every_group.sh <out dir>
#
# Issue 33's neighbour independence, every group the sanitizer group included: a correct reduction of
# each kind — reduction/correct.cu (KC_REDUCE_PASS: every block's partial sum checked) and
# reduction/atomic_full.cu (KC_REDUCE_FULL: the total only) — is graded alone, then with the same seed
# in one batch beside two neighbours that take device memory — neighbours/reduction/allocates_everything.cu
# (all it can at once, through cudaMalloc and past the guard) and neighbours/reduction/leaks_every_call.cu
# (64 MiB a call, never freed) — and each one's grade alone and beside is compared by
# grade_differences.sh: every case's verdict (the sanitizer tools' and the performance case's
# included), every group's score and counts, the total, the verdict and results.json; not what
# measures time (that script's header says why the performance group's score is compared and its
# ratio is not). The whole comparison runs KCONFORM_NEIGHBOUR_RUNS times (default 3), each with a
# fresh seed, and all must be identical (the issue: 3 of 3 on the GPU); a table of the runs is printed.
# It also requires what makes the comparison mean something: alone, each submission is read as the
# kind it is meant to be (traits.json) and scores full marks in every group but performance (a group
# that failed alone could fail identically beside). (check_neighbours.sh is issue 19's check: the
# correct tiled matmul among hostile matmul neighbours, and the tampering neighbour.)
# GPU time: on 4 H100s at b498e02 a run took ~80 s (both alone 27-28 s, the batch of four 48-62 s),
# the three 252 s. Exit: 0 every run identical, 1 not,
# 77 no GPU (CTest's skip). KCONFORM_GRADE_SUITE_BUILD names the suite's build (CTest passes it).
set -uo pipefail
out=$1
runs=${KCONFORM_NEIGHBOUR_RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# Side by side on a host of several GPUs (KCONFORM_PIN_TO_RESOURCE_GPU=1) this test grades on the GPU CTest
# handed it, beside the others on theirs; one at a time, its batch spreads over every GPU.
. "$root/ctest_config/pin_to_resource_gpu.sh" || { echo "FAILED: $root/ctest_config/pin_to_resource_gpu.sh is missing"; exit 2; }
pin_to_resource_gpu
case "$runs" in '' | *[!0-9]* | 0) echo "FAILED: KCONFORM_NEIGHBOUR_RUNS must be a positive integer, not '$runs'"; exit 1 ;; esac
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU on this machine (grading needs one)"
  case "${KCONFORM_REQUIRE_GPU:-}" in "" | 0) exit 77 ;; *) exit 1 ;; esac
fi
rm -rf "$out"
mkdir -p "$out/batch"

# The correct submissions and the kind each must be read as (traits.json's "kind").
students=(correct atomic_full)
declare -A kind_of=([correct]=pass [atomic_full]=full)
for student in "${students[@]}"; do ln -s "$here/reduction/$student.cu" "$out/batch/$student.cu"; done
for f in "$here"/neighbours/reduction/*.cu; do ln -s "$f" "$out/batch/$(basename "$f")"; done
neighbours=$(find "$here/neighbours/reduction" -name '*.cu' | wc -l)

field() { grep -oE "\"$2\":(\"[^\"]*\"|-?[0-9.eE+-]+)" "$1" 2>/dev/null | head -1 | sed -E "s/^\"$2\"://; s/\"//g"; }
# Alone, every group but performance at full marks ("" when so, else what fell short).
short_of_full() {
  python3 - "$1/summary.json" <<'PY'
import json, sys
try:
    groups = json.load(open(sys.argv[1])).get("groups", {})
except (OSError, ValueError) as e:
    print(f"summary.json unreadable ({e})"); sys.exit()
short = [f"{name} {g.get('score')} of {g.get('max_score')}" for name, g in sorted(groups.items())
         if name != "performance" and g.get("score") != g.get("max_score")]
print(", ".join(short) if short else ("" if groups else "no group in summary.json"))
PY
}

table="$out/runs.tsv"
printf 'run\tseed\tstudent\tkind\talone\tbeside\tcases\tcases differing\tgroups differing\trerun beside\tresult\n' >"$table"
failed_runs=0
for run in $(seq 1 "$runs"); do
  dir="$out/run$run"
  mkdir -p "$dir"
  seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
  run_failed=0
  started=$(date +%s)
  for student in "${students[@]}"; do
    "$root/scripts/grade.sh" --family reduction --submission "$here/reduction/$student.cu" --student "$student" \
      --seed "$seed" --out "$dir/alone/$student" >"$dir/alone-$student.log" 2>&1 ||
      { echo "FAILED: run $run: grading $student alone did not work"; tail "$dir/alone-$student.log"; exit 1; }
  done
  alone_s=$(($(date +%s) - started))
  started=$(date +%s)
  "$root/scripts/grade.sh" --family reduction --batch "$out/batch" --seed "$seed" --out "$dir/beside" >"$dir/beside.log" 2>&1 ||
    { echo "FAILED: run $run: grading the batch did not work"; tail "$dir/beside.log"; exit 1; }
  beside_s=$(($(date +%s) - started))
  echo "run $run of $runs, seed $seed: alone ${alone_s} s (both), beside $neighbours neighbours ${beside_s} s (the batch)"

  for student in "${students[@]}"; do
    alone="$dir/alone/$student" beside="$dir/beside/$student" problems=()
    kind=$(field "$alone/traits.json" kind)
    if [ "$kind" != "${kind_of[$student]}" ]; then
      echo "FAILED: run $run: $student was read as kind '$kind', not ${kind_of[$student]}: this check grades one of each"
      problems+=(wrong_kind)
    fi
    short=$(short_of_full "$alone")
    if [ -n "$short" ]; then
      echo "FAILED: run $run: $student alone fell short of full marks ($short): a correct submission must be graded" \
        "full alone, or the comparison compares failures"
      problems+=(not_full_alone)
    fi
    "$here/grade_differences.sh" "$alone" "$beside" "$dir/$student.counts" >"$dir/$student.differences"
    case $? in
      0) ;;
      1) echo "FAILED: run $run: $student's grade differs between alone and beside the neighbours:"
         sed 's/^/    /' "$dir/$student.differences"
         problems+=(differs) ;;
      *) echo "FAILED: run $run: $student's grades could not be compared:"
         sed 's/^/    /' "$dir/$student.differences"
         problems+=(not_compared) ;;
    esac
    result=identical
    if [ ${#problems[@]} -gt 0 ]; then
      result=$(IFS=+; echo "${problems[*]}")
      run_failed=1
    fi
    counts=$(cat "$dir/$student.counts" 2>/dev/null || printf '?\t?\t?\t?\t?')
    IFS=$'\t' read -r cases case_diffs _groups group_diffs rerun <<<"$counts"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$seed" "$student" "$kind" \
      "$(field "$alone/summary.json" score) ($(field "$alone/summary.json" verdict))" \
      "$(field "$beside/summary.json" score) ($(field "$beside/summary.json" verdict))" \
      "$cases" "$case_diffs" "$group_diffs" "$rerun" "$result" >>"$table"
  done
  failed_runs=$((failed_runs + run_failed))
done

# Aligned by awk, not column(1): minimal hosts (the GPU box among them) lack it.
awk -F'\t' '{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > width[i]) width[i] = length($i) }
               if (NF > fields) fields = NF }
             END { for (r = 1; r <= NR; r++) { line = ""
                     for (i = 1; i < fields; i++) line = line sprintf("%-" width[i] "s  ", cell[r, i])
                     print line cell[r, fields] } }' "$table"
cat "$out/run$runs/beside/class.csv" 2>/dev/null
echo "on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
[ $failed_runs -eq 0 ] || { echo "FAILED: $failed_runs of $runs run(s) were not identical; folders under $out"; exit 1; }
echo "PASSED: $runs of $runs runs identical: every case verdict and group score, the sanitizer group's included," \
  "alone and beside the neighbours"
