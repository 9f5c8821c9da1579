#!/usr/bin/env bash
# A stand-in for scripts/grade.sh (tests/grading/grading_scale_scripts_test.sh): takes the same
# arguments and writes, per student, the files issue 33's scripts read — summary.json, results.json,
# traits.json, build.json, run/listed_units.tsv, run/units/*.json — and, for --batch, class.csv and
# grade.sh's "ran in <s> s" line, without building or running anything. A student's verdict follows
# its name as the examples' do: "spins"/"loop" timeout, "abort"/"fault"/"exit"/"trap" crash, else
# passed at 100. FAKE_GRADE_BESIDE_FLIP=<student>: in a batch, that student's racecheck case fails
# (a neighbour changed its grade), so the comparison's failure path is exercised too.
set -uo pipefail
family='' submission='' batch='' out='' seed=1 student=''
while [ $# -gt 0 ]; do
  case "$1" in
    --family) family=$2; shift 2 ;;
    --submission) submission=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --student) student=$2; shift 2 ;;
    --processes) case "$2" in per-group | per-student) shift 2 ;; *) echo "fake grade.sh: --processes $2" >&2; exit 2 ;; esac ;;
    --performance-overlap) case "$2" in [1-9]*) shift 2 ;; *) echo "fake grade.sh: --performance-overlap $2" >&2; exit 2 ;; esac ;;
    *) echo "fake grade.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$family" ] || [ -z "$out" ]; then echo "fake grade.sh: --family and --out are needed" >&2; exit 2; fi

# one_student <dir> <name> <in a batch: 1>
one_student() {
  local dir=$1 name=$2 in_batch=$3 verdict=passed score=100 race=passed sanitizer=10 kind=pass tool
  case "$name" in
    *spins* | *loop*) verdict=timeout score=0 ;;
    *abort* | *fault* | *exit* | *trap*) verdict=crash score=80 ;;
  esac
  case "$name" in *atomic* | *leaks*) kind=full ;; esac
  if [ "$in_batch" = 1 ] && [ "$name" = "${FAKE_GRADE_BESIDE_FLIP:-}" ]; then
    race=failed sanitizer=6.67 score=96.67 verdict=sanitizer
  fi
  # Seconds that differ between students and between runs: what the comparison must ignore.
  local seconds=$(( (${#name} * 7 + RANDOM % 5) % 23 + 2 ))
  mkdir -p "$dir/run/units"
  printf '{"family":"%s","kind":"%s"}\n' "$family" "$kind" >"$dir/traits.json"
  printf '{"status":"ok","log":"","seconds":%s.5}\n' "$((seconds / 2))" >"$dir/build.json"
  printf 'small_sizes\t1\t1\nperformance\t1\t4\n' >"$dir/run/listed_units.tsv"
  # Its executor's start-up, in the parts grading/submission_library.cpp records (1.5 s in all).
  printf '{"unit":"grade.small_sizes","started":1000.0,"seconds":%s,"cases":[{"name":"N32","status":"passed","seconds":%s,"message":"","properties":{"executor_spawn_seconds":"0.010000","executor_device_seconds":"1.250000","executor_load_seconds":"0.240000"}}]}\n' \
    "$seconds" "$seconds" >"$dir/run/units/grade.small_sizes.json"
  printf '{"unit":"grade.performance","started":1030.0,"seconds":3,"cases":[{"name":"N16M","status":"passed","seconds":3,"message":"","properties":{"ratio":"1.0%s"}}]}\n' \
    "$((RANDOM % 9))" >"$dir/run/units/grade.performance.json"
  for tool in memcheck racecheck synccheck; do
    local status=passed
    [ $tool != racecheck ] || status=$race
    printf '{"unit":"grade.sanitizer.%s","started":1000.0,"seconds":2,"cases":[{"name":"N33","status":"%s","seconds":2,"message":"","properties":{}}]}\n' \
      "$tool" "$status" >"$dir/run/units/grade.sanitizer.$tool.json"
  done
  printf '{"student":"%s","family":"%s","seed":"%s","score":%s,"max_score":100,"verdict":"%s","groups":{"small_sizes":{"score":90,"max_score":90},"sanitizer":{"score":%s,"max_score":10},"performance":{"score":%s,"max_score":10}},"seconds":%s,"build":"ok"}\n' \
    "$name" "$family" "$seed" "$score" "$verdict" "$sanitizer" "$([ "$score" = 100 ] && echo 10 || echo 0)" "$seconds" >"$dir/summary.json"
  printf '{"score":%s,"tests":[{"name":"Sanitizer","score":%s,"max_score":10,"status":"passed"}]}\n' \
    "$score" "$sanitizer" >"$dir/results.json"
}

mkdir -p "$out"
# The GPUs its programs would see (grade_synthetic_class.sh --side-by-side pins each family to one).
echo "${CUDA_VISIBLE_DEVICES-unset} ${CUDA_DEVICE_ORDER-unset}" >"$out/visible_gpus.txt"
if [ -n "$submission" ]; then
  one_student "$out" "${student:-$(basename "$submission" .cu)}" 0
  exit 0
fi
echo "student,family,score,max_score,verdict,small_sizes,sanitizer,performance,seconds,seed" >"$out/class.csv"
for entry in "$batch"/*.cu; do
  name=$(basename "$entry" .cu)
  one_student "$out/$name" "$name" 1
  python3 - "$out/$name/summary.json" "$seed" >>"$out/class.csv" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))
g = s["groups"]
csv.writer(sys.stdout, lineterminator="\n").writerow([s["student"], s["family"], s["score"], 100, s["verdict"] + ", slow",
    g["small_sizes"]["score"], g["sanitizer"]["score"], g["performance"]["score"], s["seconds"], sys.argv[2]])
PY
done
echo "ran in 42 s"
