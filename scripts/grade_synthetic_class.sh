#!/usr/bin/env bash
# Grades a synthetic class of one family, or of every family in turn, and says how long it took
# (issue 33, "Grading at class scale": a class of 100 in at most 10 minutes on one H100, every family).
#
#   scripts/grade_synthetic_class.sh --family <family> [--size 100] [--out <dir>] [--seed <u64>] [--dry-run]
#   scripts/grade_synthetic_class.sh --all [--families a,b,...] [--size 100] [--out <dir>] [--seed <u64>] [--dry-run]
#   scripts/grade_synthetic_class.sh --table <dir>     the per-family markdown table of an earlier --out
#   --processes per-student|per-group goes to grade.sh (how a student's groups share processes; per-student, its default).
#   --performance-overlap <n> goes to grade.sh (performance units of a GPU at once; 1, its default).
#   --side-by-side (with --all): the families at once, one a GPU (each pinned to its GPU with
#   CUDA_VISIBLE_DEVICES), in rounds of as many as there are GPUs: a host of several measures several
#   families in one family's time. Each still has one GPU, and shares the host's cores and the
#   driver's start-ups with the others, so its time is an upper bound of its time alone (each
#   family's composition.txt and table row say so).
#
# The class: the family's example submissions that need a GPU (tests/submissions/expected.tsv, needs
# = gpu) other than those that hang or crash, copied in turn under distinct student names
# (s001_<example>, ...) up to --size, and then exactly one that hangs and one that crashes as the
# last two students. Hanging: an example whose expected verdict is timeout; crashing: crash, fault or
# exit; of several, the one with the lowest expected maximum score (the one that hangs or fails in the
# most cases: the slowest for the grader), so the measurement is the worst case, and last, so that
# what it costs is not hidden behind other students' work. matmul's hanging example lives among the
# neighbours (tests/submissions/neighbours/spins_at_odd_shapes.cu, a matmul submission without an
# expected.tsv row). A family without such an example is graded without one, and the output and the
# table say so: another family's example cannot stand in, its contract is not this family's.
# Then scripts/grade.sh --batch grades the class (builds included, with --seed if given) and
# scripts/class_timing.sh prints per-student seconds, the wall time and a summary, and writes the
# family's row (row.tsv) of the table. --all grades each family in turn (every grading/families/<f>.cmake,
# or --families) and writes <out>/table.md. --dry-run makes the class and prints it, grading nothing.
#
# Per family, under <out>/<family>/: class/ (the students, links to the examples), grades/ (grade.sh's
# --out: class.csv, a folder per student), grade.log, progress.tsv (every 20 s: students built, units
# done, GPU busy, load), composition.txt, timeline.txt (scripts/class_timeline.sh: the grading
# processes by kind over time; a class cut short can be read with it too), timing.txt (what was printed),
# row.tsv. Default --out: grades/synthetic-class-<date>.
# Exit: 0 graded (whatever the students scored); 2 bad arguments, a family that could not be graded,
# or cut short by SIGTERM or SIGINT (below: its grading processes are killed, its timeline written).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
examples="$root/tests/submissions"
family='' all=0 families='' size=100 out='' seed='' dry_run=0 table_of='' processes=per-student side_by_side=0 overlap=1
while [ $# -gt 0 ]; do
  case "$1" in
    --family) family=${2:-}; shift 2 || shift ;;
    --all) all=1; shift ;;
    --families) families=${2:-}; shift 2 || shift ;;
    --size) size=${2:-}; shift 2 || shift ;;
    --out) out=${2:-}; shift 2 || shift ;;
    --seed) seed=${2:-}; shift 2 || shift ;;
    --dry-run) dry_run=1; shift ;;
    --table) table_of=${2:-}; shift 2 || shift ;;
    --processes) processes=${2:-}; shift 2 || shift ;;
    --performance-overlap) overlap=${2:-}; shift 2 || shift ;;
    --side-by-side) side_by_side=1; shift ;;
    -h | --help) sed -n '2,37p' "$0"; exit 0 ;;
    *) echo "grade_synthetic_class.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
fail() { echo "grade_synthetic_class.sh: $*" >&2; exit 2; }
if [ -n "$table_of" ]; then
  [ -d "$table_of" ] || fail "no such folder: $table_of"
  exec "$root/scripts/class_timing_table.sh" "$table_of"
fi
known=$(find "$root/grading/families" -maxdepth 1 -name '*.cmake' -printf '%f\n' | sed 's/\.cmake$//' | sort | tr '\n' ' ')
[ "$all" = 1 ] || [ -n "$family" ] || fail "give --family <family>, --all or --table <dir> (families: $known)"
[ "$all" = 0 ] || [ -z "$family" ] || fail "give --family or --all, not both"
[ -z "$families" ] || [ "$all" = 1 ] || fail "--families goes with --all"
[ "$side_by_side" = 0 ] || [ "$all" = 1 ] || fail "--side-by-side goes with --all"
case "$size" in '' | *[!0-9]*) fail "--size must be a whole number, not '$size'" ;; esac
[ "$size" -ge 3 ] || fail "--size must be at least 3 (one hanging, one crashing and one other student)"
case "$seed" in *[!0-9]*) fail "--seed must be an unsigned integer" ;; esac
case "$processes" in per-group | per-student) ;; *) fail "--processes must be per-group or per-student" ;; esac
case "$overlap" in '' | *[!0-9]* | 0*) fail "--performance-overlap must be a positive whole number" ;; esac
if [ "$all" = 1 ]; then
  # shellcheck disable=SC2086  # the lists split into one family a word
  if [ -n "$families" ]; then set -- ${families//,/ }; else set -- $known; fi
else
  set -- "$family"
fi
for f in "$@"; do
  case " $known" in *" $f "*) ;; *) fail "no family '$f' (families: $known)" ;; esac
done
[ -n "$out" ] || out="grades/synthetic-class-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out" || fail "cannot create $out"
out=$(cd "$out" && pwd)

# Examples outside expected.tsv that hang, by family (graded only as neighbours, so without a row).
declare -A extra_hang=([matmul]="neighbours/spins_at_odd_shapes.cu")

# pick_worst <verdict regex> <family>: the expected.tsv example of that verdict with the lowest
# expected maximum score (the first listed of equals), or nothing.
pick_worst() {
  grep -v '^#' "$examples/expected.tsv" |
    awk -F'\t' -v fam="$2" -v re="^($1)$" '$1 == fam && $3 == "gpu" && $4 ~ re { print $6 "\t" NR "\t" $2 }' |
    sort -t$'\t' -k1,1g -k2,2n | head -1 | cut -f3
}

# make_class <family> <class dir>: the links; prints "hang: ...", "crash: ..." and the pool's size.
make_class() {
  local fam=$1 class=$2 hang crash hang_source='' crash_source='' pool=() i=0 n example
  rm -rf "$class"
  mkdir -p "$class"
  hang=$(pick_worst timeout "$fam")
  crash=$(pick_worst 'crash|fault|exit' "$fam")
  [ -z "$hang" ] || hang_source="$examples/$fam/$hang.cu"
  if [ -z "$hang" ] && [ -n "${extra_hang[$fam]:-}" ]; then
    hang_source="$examples/${extra_hang[$fam]}"
    hang=$(basename "$hang_source" .cu)
  fi
  [ -z "$crash" ] || crash_source="$examples/$fam/$crash.cu"
  while IFS= read -r example; do pool+=("$example"); done < <(grep -v '^#' "$examples/expected.tsv" |
    awk -F'\t' -v fam="$fam" '$1 == fam && $3 == "gpu" && $4 != "timeout" && $4 != "crash" && $4 != "fault" && $4 != "exit" { print $2 }')
  [ ${#pool[@]} -gt 0 ] || { echo "no example of $fam in expected.tsv that needs a GPU and neither hangs nor crashes"; return 1; }
  local others=$size
  [ -z "$hang_source" ] || others=$((others - 1))
  [ -z "$crash_source" ] || others=$((others - 1))
  for ((n = 1; n <= others; n++)); do
    example=${pool[i]}
    i=$(((i + 1) % ${#pool[@]}))
    ln -s "$examples/$fam/$example.cu" "$class/$(printf 's%03d' "$n")_$example.cu"
  done
  if [ -n "$hang_source" ]; then ln -s "$hang_source" "$class/$(printf 's%03d' "$n")_$hang.cu"; n=$((n + 1)); fi
  if [ -n "$crash_source" ]; then ln -s "$crash_source" "$class/$(printf 's%03d' "$n")_$crash.cu"; fi
  echo "${#pool[@]} examples repeated to $others students; hanging: ${hang:-none (no hanging $fam example)};" \
    "crashing: ${crash:-none (no crashing $fam example)}"
}

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)

# Cut short (SIGTERM, e.g. timeout(1) around a class that overruns its budget, or SIGINT): every
# grading process of the classes being graded, and everything below them (ctest, the runners, the
# judges, their executors), is stopped and killed, so none goes on using the GPU after this script
# (on the GPU box a class cut by timeout left its ctest and runners running into the next command),
# and each family cut writes its timeline.txt from the units that ended (a cut class's rates) and says
# it was cut. timeout(1) signals its whole process group: grade.sh runs in a session of its own
# (setsid), so it is alive, and its tree whole, when the trap reads the tree by parent links; the
# side-by-side families' subshells catch the signal (and wait on) rather than die. grade_family records
# its grade.sh's PID in <family>/.grader.pid for this; a PID is killed only while it is still that
# grade.sh (its command line), and an earlier run's files are removed first.
descendants() {  # descendants <pid>: every process below it, by ps's parent links
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}
stop_grading() {
  local pidfile pid tree
  : >"$out/.cut_short"
  for pidfile in "$out"/*/.grader.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    case "$pid" in '' | *[!0-9]*) continue ;; esac
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'scripts/grade.sh' || continue  # gone, or not ours
    tree="$pid $(descendants "$pid")"
    # shellcheck disable=SC2086  # the PIDs, split
    kill -STOP $tree 2>/dev/null  # frozen first: none starts another process while the tree is read again
    tree="$pid $(descendants "$pid")"  # a process started before the freeze hangs below a frozen one
    # shellcheck disable=SC2086
    kill -KILL $tree 2>/dev/null
    kill -KILL -- "-$pid" 2>/dev/null  # and anything left in its session's process group
  done
}
cut_short() { [ -f "$out/.cut_short" ]; }
rm -f "$out/.cut_short" "$out"/*/.grader.pid
trap stop_grading TERM INT

# grade_family <family> [<GPU>]: makes and grades one family's class; with <GPU> (a
# CUDA_VISIBLE_DEVICES entry, nvidia-smi's index with CUDA_DEVICE_ORDER=PCI_BUS_ID) every program of it
# sees that GPU alone. Returns 0 graded, 2 not.
grade_family() {
  local fam=$1 pin=${2:-} dir composition started progress no_gpu sampler graded wall smi_gpu=()
  dir="$out/$fam"
  mkdir -p "$dir"
  composition=$(make_class "$fam" "$dir/class") || { echo "$fam: $composition"; return 2; }
  [ -z "$pin" ] || composition+=" Side by side: on GPU $pin, beside the other families' classes on the other GPUs."
  [ "$overlap" = 1 ] || composition+=" Performance units $overlap at a time a GPU (--performance-overlap)."
  echo "$fam: a class of $(find "$dir/class" -name '*.cu' | wc -l): $composition"
  echo "$composition" >"$dir/composition.txt"
  if [ "$dry_run" = 1 ]; then
    find "$dir/class" -name '*.cu' -printf '%f -> %l\n' | sort | sed "s|$examples/||" | awk '{ printf "%-40s %s %s\n", $1, $2, $3 }'  # no column(1) on minimal hosts
    return 0
  fi
  [ -n "$gpu" ] || fail "grading needs a CUDA GPU (nvidia-smi found none); --dry-run makes the class without one"
  if [ -n "$pin" ]; then
    export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$pin
    smi_gpu=(-i "$pin")
  fi
  started=$(date +%s.%N)
  # Every 20 s, how far the class has got (a run cut short still gives its rates; on one H100 a class of
  # 100 reductions was cut at 575 s and this was all it left): seconds, students built, grading units
  # done of those CTest lists, GPU busy % and memory (of its GPU where pinned), load average.
  progress="$dir/progress.tsv"
  printf 'seconds\tbuilt\tunits_done\tunits\tgpu_busy_pct\tgpu_memory_mib\tload\n' >"$progress"
  no_gpu=$'-\t-'
  (
    while sleep 20 && kill -0 $$ 2>/dev/null; do  # ends with this script, however it ends
      log="$dir/grades/ctest/ctest.log"
      done_units=$(grep -c 'Test *#' "$log" 2>/dev/null) total=$(grep -m1 -oE '^ *[0-9]+/[0-9]+ Test' "$log" 2>/dev/null | sed -E 's|.*/([0-9]+) Test|\1|')
      gpu_now=$(nvidia-smi "${smi_gpu[@]}" --query-gpu=utilization.gpu,memory.used --format=csv,noheader,nounits 2>/dev/null | head -1 | tr -d ' ' | tr , '\t')
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')" \
        "$(find "$dir/grades" -mindepth 2 -maxdepth 2 -name build.json 2>/dev/null | wc -l)" "${done_units:-0}" "${total:--}" \
        "${gpu_now:-$no_gpu}" "$(cut -d' ' -f1 /proc/loadavg)"
    done
  ) >>"$progress" 2>/dev/null </dev/null &  # none of the caller's descriptors: nothing left behind holds its pipe
  sampler=$!
  # ${sampler:-}: the trap runs at the script's exit, after this function (and its local) may be gone.
  trap 'kill ${sampler:-} 2>/dev/null' EXIT
  if cut_short; then  # a signal came while the class was being made
    kill "$sampler" 2>/dev/null
    echo "$fam: cut short (a signal) before its grading started"
    return 2
  fi
  # A session of its own (setsid: with job control off, a background child is no group leader, so
  # setsid execs in place and $! is grade.sh's PID): timeout(1)'s signal to this script's process
  # group does not kill grade.sh and orphan its tree; stop_grading kills the tree whole.
  setsid "$root/scripts/grade.sh" --family "$fam" --batch "$dir/class" --out "$dir/grades" ${seed:+--seed "$seed"} \
    --processes "$processes" --performance-overlap "$overlap" >"$dir/grade.log" 2>&1 &
  local grader=$!
  echo "$grader" >"$dir/.grader.pid"
  ! cut_short || stop_grading  # a signal came between the start and the PID's record
  wait "$grader"
  graded=$?
  while kill -0 "$grader" 2>/dev/null; do  # the wait was interrupted by a signal's trap (stop_grading)
    wait "$grader"
    graded=$?
  done
  rm -f "$dir/.grader.pid"
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
  wall=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  # Where the time went, by kind of grading process (scripts/class_timeline.sh).
  "$root/scripts/class_timeline.sh" "$dir/grades" >"$dir/timeline.txt" 2>&1
  if cut_short; then
    echo "$fam: cut short after ${wall} s (a signal): its grading processes were stopped; $dir/timeline.txt has what ended"
    return 2
  fi
  if [ $graded -ne 0 ]; then
    echo "$fam: grading the class did not work (exit $graded, after ${wall} s): $dir/grade.log"
    tail -5 "$dir/grade.log"
    return 2
  fi
  "$root/scripts/class_timing.sh" "$fam" "$dir/grades" "$wall" "$dir/grade.log" "$dir/row.tsv" "$composition" |
    tee "$dir/timing.txt"
  return 0
}

status=0
if [ "$side_by_side" = 1 ] && [ "$dry_run" = 0 ]; then
  # One family a GPU at once, in rounds of as many families as GPUs (each round waits for its slowest).
  . "$root/ctest_config/pin_to_resource_gpu.sh" || fail "ctest_config/pin_to_resource_gpu.sh is missing"  # visible_gpu_entry
  pins=()
  for ((k = 0; k < $("$root/ctest_config/visible_gpus.sh"); k++)); do pins+=("$(visible_gpu_entry "$k")"); done
  [ ${#pins[@]} -ge 1 ] || fail "--side-by-side needs a GPU (nvidia-smi found none)"
  families_left=("$@")
  while [ ${#families_left[@]} -gt 0 ]; do
    jobs_of_round=()
    for pin in "${pins[@]}"; do
      [ ${#families_left[@]} -gt 0 ] || break
      # The subshell catches TERM and INT (a caught signal, unlike an ignored one, is not inherited
      # by the programs it starts): timeout(1) signals the whole group, and the main shell's trap
      # stops the grading; the subshell then writes its family's timeline and says it was cut.
      ( trap : TERM INT; grade_family "${families_left[0]}" "$pin" ) &
      jobs_of_round+=($!)
      families_left=("${families_left[@]:1}")
    done
    for job in "${jobs_of_round[@]}"; do
      wait "$job" || status=2
      while kill -0 "$job" 2>/dev/null; do wait "$job" || status=2; done  # a trap interrupted the wait
    done
    ! cut_short || break
  done
else
  for fam in "$@"; do
    grade_family "$fam" || status=2
    ! cut_short || break
  done
fi
if cut_short; then
  rm -f "$out/.cut_short"
  echo "grade_synthetic_class.sh: cut short by a signal; the families not yet graded were not started"
  exit 2
fi
if [ "$dry_run" = 0 ] && [ "$all" = 1 ]; then
  "$root/scripts/class_timing_table.sh" "$out" | tee "$out/table.md"
fi
exit $status
