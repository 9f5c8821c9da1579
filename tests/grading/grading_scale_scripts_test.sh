#!/usr/bin/env bash
# grading_scale_scripts_test.sh <repository root> <scratch dir>
#
# Issue 33's GPU scripts on a machine without a GPU, as far as they go without one:
#   - scripts/grade_synthetic_class.sh's arguments, and the class it makes (--dry-run, on the real
#     examples): the size asked for, one hanging and one crashing student last where the family has
#     them, and a family without them saying so;
#   - the same script, class_timing.sh and class_timing_table.sh graded through a stand-in grade.sh and
#     nvidia-smi (tests/grading/fake_grade/) in a copy of the repository's scripts and examples: every
#     family's row, the table with all 8 families, a quoted verdict ("sanitizer, slow") counted once,
#     each student checked against its example's expected.tsv row, each family's timeline.txt, a class
#     cut short by timeout(1), alone and side by side (its grading processes and all below them
#     killed, its timeline written, no bystander killed), and --side-by-side on two stand-in GPUs (each family pinned to one);
#   - the GPUs a class was graded on in its row ("2× <name>" unpinned on two, the name alone pinned) and
#     the target class_timing_table.sh holds each row to (10 minutes on one GPU, 3 on four, none on two);
#   - scripts/class_timeline.sh on fabricated unit records: processes by kind, the running counts, the
#     performance phase, the process-seconds split into start-ups, cases and the rest, the costliest case;
#   - tests/submissions/check_neighbours_every_group.sh through the same stand-ins: its runs and table,
#     a neighbour that changes a sanitizer verdict failing it, its run count checked, 77 without a GPU.
# What grading itself does on the GPU is not tested here (grading.neighbours.every_group and the
# scripts' own runs on a GPU do that). Exit: 0 all as expected, 1 not.
set -uo pipefail
root=$(cd "$1" && pwd) scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
indent() { sed 's/^/    /'; }

# ---- arguments (the real script: it refuses before it grades anything) ----
synthetic="$root/scripts/grade_synthetic_class.sh"
for args in "" "--family nope" "--family reduction --all" "--family reduction --size 2" "--family reduction --size x" \
            "--families reduction" "--family reduction --seed -1" "--bogus"; do
  # shellcheck disable=SC2086  # each line is the arguments, split
  "$synthetic" $args --dry-run --out "$scratch/args" >"$scratch/args.log" 2>&1
  status=$?
  [ $status -eq 2 ] || { fail "grade_synthetic_class.sh $args: exit $status, expected 2 (refused)"; indent <"$scratch/args.log"; }
done

# ---- the class it makes (--dry-run: no GPU needed, the real examples) ----
# class_of <family>: the class folder's students, sorted.
class_of() { find "$scratch/dry/$1/class" -name '*.cu' -printf '%f\n' | sort; }
"$synthetic" --all --size 100 --dry-run --out "$scratch/dry" >"$scratch/dry.log" 2>&1 ||
  { fail "grade_synthetic_class.sh --all --dry-run: exit $?"; indent <"$scratch/dry.log"; }
for family in $(find "$root/grading/families" -name '*.cmake' -printf '%f\n' | sed 's/\.cmake$//'); do
  [ "$(class_of "$family" | wc -l)" -eq 100 ] || fail "$family: a class of $(class_of "$family" | wc -l), not 100"
  dangling=$(find "$scratch/dry/$family/class" -xtype l | head -3)
  [ -z "$dangling" ] || fail "$family: links to no file: $dangling"
done
# reduction: the example that spins in every case and the one that fails the most by exiting, last.
[ "$(class_of reduction | tail -2 | tr '\n' ' ')" = "s099_spins_every_kernel.cu s100_exit_in_launcher.cu " ] ||
  fail "reduction's last two students are $(class_of reduction | tail -2 | tr '\n' ' '), not the hang and the crash"
[ "$(class_of reduction | grep -cE 'infinite_loop|host_loop|fault_illegal|spins_every|exit_in')" -eq 2 ] ||
  fail "reduction's class holds more than one hanging and one crashing student"
# matmul: its hang is the neighbour that spins at odd shapes (no expected.tsv row).
class_of matmul | grep -q '^s099_spins_at_odd_shapes.cu$' || fail "matmul's class has no s099_spins_at_odd_shapes"
grep -q '^atax: .*hanging: none (no hanging atax example); crashing: none (no crashing atax example)' "$scratch/dry.log" ||
  { fail "the dry run does not say atax has no hanging or crashing example"; indent <"$scratch/dry.log"; }

# ---- graded through the stand-ins, in a copy of the scripts and examples ----
copy="$scratch/repo"
mkdir -p "$copy/scripts" "$copy/tests" "$copy/grading" "$copy/ctest_config" "$scratch/bin"
cp "$root/ctest_config/pin_to_resource_gpu.sh" "$root/ctest_config/visible_gpus.sh" "$copy/ctest_config/"
cp "$root"/scripts/grade_synthetic_class.sh "$root"/scripts/class_timing.sh "$root"/scripts/class_timing_table.sh \
  "$root"/scripts/class_timeline.sh "$root"/scripts/unit_records.py "$copy/scripts/"
cp "$root/tests/grading/fake_grade/grade.sh" "$copy/scripts/grade.sh"
cp -r "$root/tests/submissions" "$copy/tests/"
cp -r "$root/grading/families" "$copy/grading/"
cp "$root/tests/grading/fake_grade/nvidia-smi" "$scratch/bin/"
fake_path="$scratch/bin:$PATH"

PATH=$fake_path "$copy/scripts/grade_synthetic_class.sh" --all --size 12 --seed 5 --out "$scratch/graded" >"$scratch/graded.log" 2>&1 ||
  { fail "grade_synthetic_class.sh --all with the stand-ins: exit $?"; indent <"$scratch/graded.log"; }
# Nothing the shell complains of (an EXIT trap once named a function's local after the function had
# returned: "sampler: unbound variable" at the end of every class, on the GPU box too).
! grep -n 'unbound variable\|command not found' "$scratch/graded.log" || fail "grade_synthetic_class.sh's log holds shell errors"
table="$scratch/graded/table.md"
[ "$(grep -c '^| [a-z0-9_]* | 12 | ' "$table" 2>/dev/null)" -eq 8 ] ||
  { fail "table.md does not have 8 families of 12 students"; indent <"$table"; }
grep -q '^| reduction | 12 | .* | yes | 42.0 | .*passed, slow 10; crash, slow 1; timeout, slow 1 | 4 of 12 | hanging: spins_every_kernel; crashing: exit_in_launcher |$' "$table" ||
  { fail "reduction's row is not as graded (12 students, 42.0 s grading, verdicts counted whole, 4 as expected.tsv says)"; indent <"$table"; }
# The stand-in grades every student "passed, slow" at 100: as expected for correct, atomic_full,
# writes_into_neighbours and detached_daemon only, and the others named (a moved verdict shows).
grep -qE '^s003_racy_volatile_warp +100 .*passed, slow  NOT AS EXPECTED$' "$scratch/graded/reduction/timing.txt" &&
  grep -q '^reduction: not as expected (tests/submissions/expected.tsv): s003_racy_volatile_warp, ' "$scratch/graded/reduction/timing.txt" ||
  { fail "a student graded unlike its example's expected.tsv row is not named"; indent <"$scratch/graded/reduction/timing.txt"; }
# matmul's hanging student (a neighbour example) has no row: counted apart, never as expected.
grep -q '^| matmul | 12 | .* | 5 of 11 (1 without a row) | hanging: spins_at_odd_shapes' "$table" ||
  { fail "matmul's student without an expected.tsv row is not counted apart"; indent <"$table"; }
grep -q 'FAKE GPU for CPU tests' "$table" || fail "table.md does not name the GPU"
grep -q '^reduction: 12 students in .* s wall (grading 42.0 s after the builds) on FAKE GPU' "$scratch/graded.log" ||
  { fail "no summary line for reduction"; indent <"$scratch/graded.log"; }
# The executors' start-up column: the stand-in's 0.01 + 1.25 + 0.24 s, added up.
grep -qE '^s001_correct +100 +[0-9.]+ +1\.5 +[0-9.]+  passed, slow$' "$scratch/graded/reduction/timing.txt" ||
  { fail "no per-student line for s001_correct"; indent <"$scratch/graded/reduction/timing.txt"; }
grep -q '^60 grading processes of 12 students' "$scratch/graded/reduction/timeline.txt" 2>/dev/null ||
  { fail "no timeline.txt for reduction's class"; indent <"$scratch/graded/reduction/timeline.txt"; }
# Side by side on two GPUs: three families in two rounds, each pinned to one GPU, saying so.
mkdir -p "$scratch/bin2"
cp "$root/tests/grading/fake_grade/nvidia-smi" "$scratch/bin2/"
sed -i 's|^  -L) echo "GPU 0: FAKE GPU for CPU tests (UUID: GPU-00000000)" ;;|  -L) echo "GPU 0: FAKE GPU for CPU tests (UUID: GPU-00000000)"; echo "GPU 1: FAKE GPU for CPU tests (UUID: GPU-00000001)" ;;|' \
  "$scratch/bin2/nvidia-smi"
PATH="$scratch/bin2:$PATH" env -u CUDA_VISIBLE_DEVICES "$copy/scripts/grade_synthetic_class.sh" --all --families reduction,matmul,atax \
  --side-by-side --size 5 --seed 5 --out "$scratch/sbs" >"$scratch/sbs.log" 2>&1 ||
  { fail "grade_synthetic_class.sh --side-by-side with the stand-ins: exit $?"; indent <"$scratch/sbs.log"; }
for expected in "reduction 0" "matmul 1" "atax 0"; do
  set -- $expected
  [ "$(cat "$scratch/sbs/$1/grades/visible_gpus.txt" 2>/dev/null)" = "$2 PCI_BUS_ID" ] ||
    fail "--side-by-side: $1 saw GPUs '$(cat "$scratch/sbs/$1/grades/visible_gpus.txt" 2>/dev/null)', not '$2 PCI_BUS_ID'"
  grep -q "Side by side: on GPU $2" "$scratch/sbs/$1/composition.txt" 2>/dev/null ||
    fail "--side-by-side: $1's composition does not say it ran side by side on GPU $2"
done
[ "$(grep -c '^| [a-z0-9_]* | 5 | ' "$scratch/sbs/table.md" 2>/dev/null)" -eq 3 ] ||
  { fail "--side-by-side: table.md does not have 3 families of 5 students"; indent <"$scratch/sbs/table.md"; }
PATH=$fake_path "$copy/scripts/grade_synthetic_class.sh" --family reduction --side-by-side --dry-run --out "$scratch/sbs1" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--side-by-side without --all was not refused"
rm "$scratch/graded/atax/row.tsv"
"$copy/scripts/class_timing_table.sh" "$scratch/graded" >"$scratch/partial.md"
grep -q '^| atax | not graded |' "$scratch/partial.md" || fail "a family without a row is not listed as not graded"

# ---- a row naming several kinds (expected.tsv's "sanitizer+slow"): each must be in the verdict ----
# persisting_l2_window's row: the verdict must name both; one of them alone, or the score out of its
# range, is not as expected.
plus="$scratch/plus"
mkdir -p "$plus"
{
  echo "student,family,score,max_score,verdict,seconds,seed"
  echo "s001_persisting_l2_window,reduction,90.58,100,\"sanitizer, slow\",30,1"
  echo "s002_persisting_l2_window,reduction,90.58,100,slow,30,1"
  echo "s003_persisting_l2_window,reduction,98,100,\"sanitizer, slow\",30,1"
} >"$plus/class.csv"
grep -q $'^reduction\tpersisting_l2_window\tgpu\tsanitizer+slow\t' "$root/tests/submissions/expected.tsv" ||
  fail "expected.tsv no longer has persisting_l2_window's two-kind row this check reads"
"$root/scripts/class_timing.sh" reduction "$plus" 1 /dev/null "$plus/row.tsv" >"$plus/timing.txt" 2>&1 ||
  { fail "class_timing.sh on a two-kind row: exit $?"; indent <"$plus/timing.txt"; }
grep -qE '^s001_persisting_l2_window .*sanitizer, slow$' "$plus/timing.txt" &&
  grep -qE '^s002_persisting_l2_window .*  NOT AS EXPECTED$' "$plus/timing.txt" &&
  grep -qE '^s003_persisting_l2_window .*  NOT AS EXPECTED$' "$plus/timing.txt" ||
  { fail "a two-kind row (sanitizer+slow) is not checked kind by kind and by score"; indent <"$plus/timing.txt"; }

# ---- the GPUs a class was graded on, and the target it is held to ----
# Pinned side by side, each family saw one GPU: its row names the GPU alone (the 10-minute target).
for fam in reduction matmul atax; do
  [ "$(cut -f2 "$scratch/sbs/$fam/row.tsv" 2>/dev/null)" = "FAKE GPU for CPU tests" ] ||
    fail "--side-by-side: $fam's row names '$(cut -f2 "$scratch/sbs/$fam/row.tsv" 2>/dev/null)', not the one GPU it saw"
done
# Unpinned on two GPUs: "2× <name>", a count with no target of its own.
PATH="$scratch/bin2:$PATH" env -u CUDA_VISIBLE_DEVICES "$copy/scripts/class_timing.sh" reduction "$plus" 1 /dev/null \
  "$plus/row2.tsv" >/dev/null 2>&1
[ "$(cut -f2 "$plus/row2.tsv" 2>/dev/null)" = "2× FAKE GPU for CPU tests" ] ||
  fail "class_timing.sh on two GPUs wrote '$(cut -f2 "$plus/row2.tsv" 2>/dev/null)', not '2× FAKE GPU for CPU tests'"
# The table holds each row to its GPU count's target: 10 minutes on one, 3 on four, none on two.
targets="$scratch/targets"
row_at() {  # row_at <family> <GPU field> <wall s>: a row of class_timing.sh's 12 fields
  mkdir -p "$targets/$1"
  printf '%s\t%s\t100\t%s\t1\t1\t1\t1\t1\tpassed 100\tcomposed\t100 of 100\n' "$1" "$2" "$3" >"$targets/$1/row.tsv"
}
row_at reduction "FAKE GPU for CPU tests" 590.0
row_at matmul "FAKE GPU for CPU tests" 610.0
row_at atax "4× FAKE GPU for CPU tests" 175.0
row_at conv2d "4× FAKE GPU for CPU tests" 190.0
row_at access "2× FAKE GPU for CPU tests" 300.0
"$copy/scripts/class_timing_table.sh" "$targets" >"$targets/table.md"
for want in '| reduction (FAKE GPU for CPU tests) | 100 | 590.0 | yes |' '| matmul (FAKE GPU for CPU tests) | 100 | 610.0 | **no** |' \
    '| atax (4× FAKE GPU for CPU tests) | 100 | 175.0 | yes |' '| conv2d (4× FAKE GPU for CPU tests) | 100 | 190.0 | **no** |' \
    '| access (2× FAKE GPU for CPU tests) | 100 | 300.0 | no target |'; do
  grep -qF -- "$want" "$targets/table.md" || { fail "the targets' table lacks: $want"; indent <"$targets/table.md"; }
done

# ---- a class cut short by timeout(1): its grading processes and all below them killed ----
# A stand-in grade.sh that starts a child which starts a grandchild, both sleeping and deaf to SIGTERM
# (as ctest and the runners were on the GPU box), and waits. timeout(1) signals its whole process
# group, not only the script; and with --side-by-side the families run in subshells.
slow="$scratch/repo-slow"
rm -rf "$slow" && cp -r "$copy" "$slow"
cat >"$slow/scripts/grade.sh" <<'SLOW'
#!/usr/bin/env bash
bash -c 'trap "" TERM; bash -c "trap \"\" TERM; exec -a kc-slow-grandchild sleep 120" & exec -a kc-slow-child sleep 120' &
wait
SLOW
for mode in one side-by-side; do
  args=(--family reduction --size 3) gpus=$fake_path families="reduction"
  if [ $mode = side-by-side ]; then args=(--all --families reduction,matmul --side-by-side --size 3); gpus="$scratch/bin2:$PATH"; families="reduction matmul"; fi
  rm -rf "$scratch/cut-$mode"
  PATH=$gpus timeout -s TERM 4 "$slow/scripts/grade_synthetic_class.sh" "${args[@]}" --out "$scratch/cut-$mode" \
    >"$scratch/cut-$mode.log" 2>&1
  status=$?
  sleep 0.5
  [ $status -eq 124 ] || { fail "$mode: timeout(1) reported $status, not 124 (the class ended before it?)"; indent <"$scratch/cut-$mode.log"; }
  for family in $families; do
    { grep -q "^$family: cut short after " "$scratch/cut-$mode.log" && [ -f "$scratch/cut-$mode/$family/timeline.txt" ] &&
      [ ! -f "$scratch/cut-$mode/$family/.grader.pid" ]; } ||
      { fail "$mode: $family cut by timeout(1): no 'cut short' line, no timeline.txt, or its .grader.pid left"; indent <"$scratch/cut-$mode.log"; }
  done
  if pgrep -f 'kc-slow-(child|grandchild)' >/dev/null; then
    fail "$mode: a class cut by timeout(1) left its grading processes running: $(pgrep -af 'kc-slow-' | tr '\n' ' ')"
    pkill -KILL -f 'kc-slow-' 2>/dev/null
  fi
done
# A .grader.pid left by an earlier run names a process that is not this run's grade.sh: never killed.
sleep 120 &
bystander=$!
mkdir -p "$scratch/cut-one/stale" && echo $bystander >"$scratch/cut-one/stale/.grader.pid"
PATH=$fake_path timeout -s TERM 4 "$slow/scripts/grade_synthetic_class.sh" --family reduction --size 3 --out "$scratch/cut-one" \
  >"$scratch/cut-stale.log" 2>&1
kill -0 $bystander 2>/dev/null || fail "a class cut short killed the process an earlier run's .grader.pid named"
kill $bystander 2>/dev/null; wait $bystander 2>/dev/null
pkill -KILL -f 'kc-slow-' 2>/dev/null

# ---- check_neighbours_every_group.sh through the stand-ins ----
neighbours="$copy/tests/submissions/check_neighbours_every_group.sh"
# As CTest runs it under a resource spec (the GPU box): pinned to the GPU it was handed.
PATH=$fake_path KCONFORM_NEIGHBOUR_RUNS=2 CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1 KCONFORM_PIN_TO_RESOURCE_GPU=1 \
  "$neighbours" "$scratch/neighbours" \
  >"$scratch/neighbours.log" 2>&1
status=$?
[ $status -eq 0 ] || { fail "check_neighbours_every_group.sh with identical grades: exit $status"; indent <"$scratch/neighbours.log"; }
[ "$(grep -cE '^[12] +[0-9]+ +(correct +pass|atomic_full +full) .* identical$' "$scratch/neighbours.log")" -eq 4 ] ||
  { fail "the neighbours' table does not hold 2 runs x 2 students, identical"; indent <"$scratch/neighbours.log"; }
PATH=$fake_path KCONFORM_NEIGHBOUR_RUNS=1 FAKE_GRADE_BESIDE_FLIP=atomic_full "$neighbours" "$scratch/flipped" >"$scratch/flipped.log" 2>&1
status=$?
{ [ $status -eq 1 ] && grep -q 'case grade.sanitizer.racecheck N33: alone passed, beside failed' "$scratch/flipped.log" &&
  grep -qE '^1 +[0-9]+ +atomic_full +full .* differs$' "$scratch/flipped.log"; } ||
  { fail "a sanitizer verdict changed beside the neighbours did not fail the check (exit $status)"; indent <"$scratch/flipped.log"; }
PATH=$fake_path KCONFORM_NEIGHBOUR_RUNS=0 "$neighbours" "$scratch/zero" >"$scratch/zero.log" 2>&1
[ $? -eq 1 ] || fail "KCONFORM_NEIGHBOUR_RUNS=0 was not refused"
# Without a GPU: CTest's skip. (The stand-in nvidia-smi is left off PATH; one that fails stands for none.)
mkdir -p "$scratch/bin-none"
printf '#!/bin/sh\nexit 9\n' >"$scratch/bin-none/nvidia-smi"
chmod +x "$scratch/bin-none/nvidia-smi"
PATH="$scratch/bin-none:$PATH" env -u KCONFORM_REQUIRE_GPU "$neighbours" "$scratch/nogpu" >"$scratch/nogpu.log" 2>&1
status=$?
[ $status -eq 77 ] || { fail "without a GPU check_neighbours_every_group.sh exited $status, not 77"; indent <"$scratch/nogpu.log"; }

# ---- scripts/class_timeline.sh on fabricated unit records (tools/runner's units/*.json) ----
# s1: per-student, two value groups sharing one process (one start, 3 + 2 s), three sanitizer units;
# s2: a value process of 11 s, started with s1's; both performance units after the rest. Times from the first start (90).
timeline="$scratch/timeline"
unit() {  # unit <student> <unit> <started> <seconds> [<cases, as JSON>]
  mkdir -p "$timeline/$1/run/units"
  printf '{"unit": "%s", "processes": 1, "seconds": %s, "started": %s, "cases": [%s]}\n' "$2" "$4" "$3" "${5:-}" \
    >"$timeline/$1/run/units/$2.json"
}
# The cases: s1's first paid 1.5 s of start-ups (its judge's CUDA, its executor's context), so
# values' start-ups 1.5 s, cases 1.0 + 0.5 + 9 s, and the costliest case N4096 (9.5 s, 2 students).
unit s1 grade.configs 100 3 '{"name": "Grade/N33", "seconds": 2.5, "properties": {"device_open_seconds": "1.0", "executor_device_seconds": 0.5, "input_seconds": "0.4"}}, {"name": "Grade/N4096", "seconds": 0.5}'
unit s1 grade.small_sizes 100 2
for tool in memcheck racecheck synccheck; do unit s1 grade.sanitizer.$tool 90 4; done
unit s2 grade.configs 100 11 '{"name": "Grade/N4096", "seconds": 9, "properties": {"gpu_wait_seconds": "6", "staging_seconds": "0.5", "calls_seconds": "2"}}'
unit s1 grade.performance 112 1; unit s2 grade.performance 113 1.5
# s2's value process: 0.5 s before its first record, 0.3 s after its last (the runner's launch and exit).
sed -i 's/"processes": 1,/"processes": 1, "launch_seconds": 0.5, "exit_seconds": 0.3,/' "$timeline/s2/run/units/grade.configs.json"
"$root/scripts/class_timeline.sh" "$timeline" 5 >"$scratch/timeline.log" 2>&1 ||
  { fail "class_timeline.sh: exit $?"; indent <"$scratch/timeline.log"; }
# kind, processes, first start, last end, process-seconds, mean, max
for expected in "values 2 10 21 16 8.0 11.0" "sanitizer 3 0 4 12 4.0 4.0" "performance 2 22 24 2 1.2 1.5"; do
  grep -qE "^$(echo "$expected" | sed 's/ / +/g')$" "$scratch/timeline.log" ||
    { fail "class_timeline.sh: no row '$expected'"; indent <"$scratch/timeline.log"; }
done
grep -qE '^ +10 s +2 +0 +0$' "$scratch/timeline.log" || { fail "class_timeline.sh: not 2 value processes at 10 s"; indent <"$scratch/timeline.log"; }
grep -q 'ended at 21 s; the performance processes ran from 22 s to 24 s (2 of them, 2 s); 1 s between' "$scratch/timeline.log" ||
  { fail "class_timeline.sh: the performance phase"; indent <"$scratch/timeline.log"; }
# kind, process-seconds, start-ups, cases, other
grep -qE '^values +16\.0 +1\.5 +10\.5 +0\.5 +0\.3 +3\.2$' "$scratch/timeline.log" ||
  { fail "class_timeline.sh: the values' process-seconds are not split into 16 = 1.5 start-ups + 10.5 cases + 0.5 launch + 0.3 exit + 3.2 other"; indent <"$scratch/timeline.log"; }
# The cases' own 10.5 s by activity: 0.4 s inputs (s1's N33), 6 s waiting for the GPU, 0.5 s staging and 2 s in
# calls into the submission's process (s2's N4096), 1.6 s the rest.
grep -qE '^values +10\.5 +0\.4 +6\.0 +0\.0 +0\.0 +0\.0 +0\.0 +0\.5 +2\.0 +1\.6$' "$scratch/timeline.log" ||
  { fail "class_timeline.sh: the values' case seconds are not split by activity"; indent <"$scratch/timeline.log"; }
grep -A2 '^the costliest cases' "$scratch/timeline.log" | grep -qE '^ +9\.5 +4\.75 +2  values +grade\.configs Grade/N4096$' ||
  { fail "class_timeline.sh: the costliest case is not Grade/N4096, 9.5 s over 2 runs"; indent <"$scratch/timeline.log"; }
grep -A2 '^the costliest submissions' "$scratch/timeline.log" | grep -qE '^ +12\.0 +12\.0 +3\.0 +1  sanitizer +s1$' ||
  { fail "class_timeline.sh: the costliest submission is not s1's sanitizer units, 12 s in 3 processes"; indent <"$scratch/timeline.log"; }
# The CUDA start-ups: s1's judge opened its GPU at 100 s for 1 s, its executor then for 0.5 s (10-15 s
# from the first start, in the 5 s bucket at 10 s: 2 completed, 0.4 a second, 0.3 in progress).
grep -qE '^ +10 s +0\.40 +0\.3 +0\.75$' "$scratch/timeline.log" ||
  { fail "class_timeline.sh: the start-ups' bucket at 10 s is not 0.40 a second, 0.3 in progress, 0.75 s each"; indent <"$scratch/timeline.log"; }
grep -qx '2 start-ups, 0.75 s each on average; no bucket had 4 or more in progress' "$scratch/timeline.log" ||
  { fail "class_timeline.sh: the start-ups' summary (2, 0.75 s, none crowded)"; indent <"$scratch/timeline.log"; }
# Ten judges opening their GPUs at once, 4 s each: one 5 s bucket, 8 in progress, 2 completed a second.
timeline="$scratch/timeline-startups"
for k in 0 1 2 3 4 5 6 7 8 9; do
  unit "s$k" grade.configs 100 4 '{"name": "Grade/N33", "seconds": 4, "properties": {"device_open_seconds": "4.0"}}'
done
"$root/scripts/class_timeline.sh" "$timeline" 5 >"$scratch/timeline-startups.log" 2>&1 ||
  { fail "class_timeline.sh (start-ups): exit $?"; indent <"$scratch/timeline-startups.log"; }
grep -qE '^ +0 s +2\.00 +8\.0 +4\.00$' "$scratch/timeline-startups.log" &&
  grep -qx '10 start-ups, 4.00 s each on average; in the 1 bucket with 4 or more in progress (8.0-8.0), 2.00-2.00 completed a second (median 2.00, one every 0.50 s); at that rate the class.s 10 take 5 s' "$scratch/timeline-startups.log" ||
  { fail "class_timeline.sh: ten start-ups at once are not 2 a second with 8 in progress"; indent <"$scratch/timeline-startups.log"; }
# A synthetic class's students (s<nnn>_<example>) are summed by example: two that fault under memcheck
# in every case (6 processes, 30 s each) against one correct (1 process, 3 s).
timeline="$scratch/timeline-synthetic"
unit s001_faults grade.sanitizer.memcheck 100 30
unit s002_correct grade.sanitizer.memcheck 100 3
unit s003_faults grade.sanitizer.memcheck 101 30
sed -i 's/"processes": 1/"processes": 6/' "$timeline"/s00[13]_faults/run/units/*.json
"$root/scripts/class_timeline.sh" "$timeline" >"$scratch/timeline-synthetic.log" 2>&1 ||
  { fail "class_timeline.sh (synthetic names): exit $?"; indent <"$scratch/timeline-synthetic.log"; }
grep -A3 '^the costliest submissions' "$scratch/timeline-synthetic.log" | grep -qE '^ +60\.0 +30\.0 +6\.0 +2  sanitizer +faults$' ||
  { fail "class_timeline.sh: the examples' students are not summed by example"; indent <"$scratch/timeline-synthetic.log"; }
rm -rf "$scratch/empty" && mkdir -p "$scratch/empty"
"$root/scripts/class_timeline.sh" "$scratch/empty" >/dev/null 2>&1
[ $? -eq 1 ] || fail "class_timeline.sh: a folder without unit records was not refused"

[ $failures -eq 0 ] || { echo "FAILED: $failures check(s); logs under $scratch"; exit 1; }
echo "PASSED: the synthetic class's arguments and classes, its timing rows and table, and the neighbour check's runs," \
  "table and failure, without a GPU"
