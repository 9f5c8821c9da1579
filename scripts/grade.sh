#!/usr/bin/env bash
# Grades student submissions against a family's suite (docs/grading.md).
#
#   scripts/grade.sh --family <family> --submission <student.cu> [--rubric <rubric.json>] [--out <dir>]
#   scripts/grade.sh --family <family> --batch <folder> [--rubric <rubric.json>] [--out <dir>]
#   families: those with a grading/families/<family>.cmake (reduction, matmul, and the seed-003/004
#   labs' families; docs/grading.md lists them with their contracts)
#   options: --seed <u64>     replay a grading run (default: a fresh seed from /dev/urandom, recorded)
#            --only <filter>  run only the cases a gtest filter names (a report's replay command), in
#                             the units that hold them (value groups, performance); no sanitizer
#            --tool <memcheck|racecheck|synccheck>
#                             run only that sanitizer's unit (a report's replay of a tool finding), its
#                             cases narrowed by --only where given
#            --student <name> the name in the reports (default: the file's or folder's name)
#            --jobs <n>       submissions built at once in a batch (default: every core: the builds come
#                             before any GPU work, which waits for them; 100 took 60 s at 8 of 16 cores)
#            --processes per-student|per-group
#                             per-student (default): a student's value groups (sizes, configurations,
#                             edge inputs) share one process (kconform_runner --units, each group still
#                             reported as its own unit, a hang streak stopping its own group only), so a
#                             student starts 5 grading processes (values, 3 sanitizer tools,
#                             performance), each with a CUDA context and a sandboxed executor, not 9;
#                             per-group: each rubric group's cases in processes of their own. The reports
#                             are the same. Measured on an H100 (docs/grading.md, "Class of 100"): a class
#                             of 100 reductions per student, 8 slots, in 534 s, every student as its
#                             example's expected.tsv row says; per group it had not finished at 575 s
#                             (an earlier commit, before the longest-first order: not a same-commit A/B)
#            --performance-overlap <n>
#                             performance units of a GPU running at once, at most the slots a GPU
#                             (default 1: one at a time, each with every slot of its GPU). Above 1 they
#                             start only once every other unit of the batch has ended, each holds its GPU
#                             for its whole case (a lock per GPU, grading/performance_hold.hpp: the
#                             submission's code runs only inside it), and the grading processes' own
#                             starts and ends overlap another's timing. Not yet measured on a GPU: that
#                             the ratios hold is for scripts/grading_timing_under_startups.sh to show
#                             (docs/grading.md, "Performance overlap")
#
# Per submission it writes, under <out> (--batch: <out>/<student>/):
#   results.json  Gradescope's format: score, max_score and output per rubric group
#   report.md     for the student: what failed, the smallest failing case, expected vs actual, how to replay it
#   summary.json  the same in short, for the class CSV
#   build.json, compile.log, run/units/*.{json,xml} (per-case verdicts, JUnit), run/ctest.log,
#   run/listed_units.tsv (the units the grading program listed: unit, cases, cost)
# and for --batch, <out>/class.csv (one row per student).
#
# How: the suite's grading programs are built once (build/gpu with a GPU, else build/ci;
# KCONFORM_GRADE_SUITE_BUILD overrides). Each submission is compiled on its own into a shared library
# with the family's contract header forced in (so a wrong signature is a compile error that names the
# entry point), then probed in a process of its own for its traits. Every rubric group then runs as a
# CTest test of a generated project (per submission: its value groups in one test, or one per group
# with --processes per-group, plus the sanitizer runs and the
# performance case), spread over the GPUs present through CTest resource groups; kconform_runner
# isolates each case, so a crash, hang or exit costs that case, and a case with no verdict fails.
#
# Exit status: 0 when the grading worked, whatever the students scored; 2 when it could not grade
# (bad arguments, the suite does not build, no GPU for a submission that built).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Nothing inherited may change a grade: a quick run's cost cap, a narrowing filter, another run's
# seed or report folder (KCONFORM_GRADE_SUITE_BUILD, which only says where the suite is built, stays).
# KCONFORM_GRADING_SLOTS_PER_GPU (how many grading processes share a GPU) and KCONFORM_HOST_GPU_PROCESSES
# (how many run at once over the GPUs a batch sees: ctest_config/slots_per_gpu.sh) are throughput, not a
# grade: read first.
slots=${KCONFORM_GRADING_SLOTS_PER_GPU:-8}
host_processes=${KCONFORM_HOST_GPU_PROCESSES:-16}
for var in $(compgen -e | grep '^KCONFORM_' | grep -v '^KCONFORM_GRADE_SUITE_BUILD$'); do unset "$var"; done

family= submission= batch= rubric= out= seed= only= only_tool= student= jobs= processes=per-student overlap=1
while [ $# -gt 0 ]; do
  case "$1" in
    --family) family=$2; shift 2 ;;
    --submission) submission=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --rubric) rubric=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --tool) only_tool=$2; shift 2 ;;
    --student) student=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --processes) processes=$2; shift 2 ;;
    --performance-overlap) overlap=$2; shift 2 ;;
    -h | --help) sed -n '2,56p' "$0"; exit 0 ;;
    *) echo "grade.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
fail() { echo "grade.sh: $*" >&2; exit 2; }
[[ "$slots" =~ ^[1-9][0-9]*$ ]] || fail "KCONFORM_GRADING_SLOTS_PER_GPU must be a positive integer"
families=$(cd "$root/grading/families" && ls *.cmake | sed 's/\.cmake$//' | tr '\n' ' ')
[[ "$family" =~ ^[a-z][a-z0-9_]*$ ]] && [ -f "$root/grading/families/$family.cmake" ] ||
  fail "--family must be one of: $families(grading/families/<family>.cmake)"
[ -n "$submission" ] || [ -n "$batch" ] || fail "give --submission <file.cu> or --batch <folder>"
[ -z "$submission" ] || [ -z "$batch" ] || fail "give --submission or --batch, not both"
[ -z "$submission" ] || [ -f "$submission" ] || fail "no such file: $submission"
[ -z "$batch" ] || [ -d "$batch" ] || fail "no such folder: $batch"
[ -z "$rubric" ] || [ -f "$rubric" ] || fail "no such rubric: $rubric"
case "$processes" in per-group | per-student) ;; *) fail "--processes must be per-group or per-student" ;; esac
[[ "$overlap" =~ ^[1-9][0-9]{0,2}$ ]] || fail "--performance-overlap must be a whole number from 1 to the slots a GPU"
case "$only_tool" in '' | memcheck | racecheck | synccheck) ;; *) fail "--tool must be memcheck, racecheck or synccheck" ;; esac
[ -n "$seed" ] || seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
case "$seed" in '' | *[!0-9]*) fail "--seed must be an unsigned integer" ;; esac
[ -n "$jobs" ] || jobs=$(nproc)
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
if [ -z "$out" ]; then
  name=${student:-$(basename "${submission:-$batch}")}
  out="grades/$(date +%Y%m%d-%H%M%S)-$family-${name%.cu}"
fi
mkdir -p "$out" && out=$(cd "$out" && pwd) || fail "cannot create $out"

have_gpu=0
nvidia-smi -L >/dev/null 2>&1 && have_gpu=1

# ---- the suite's grading programs ----
suite=${KCONFORM_GRADE_SUITE_BUILD:-}
if [ -z "$suite" ]; then
  if [ $have_gpu = 1 ]; then preset=gpu; else preset=ci; fi
  suite="$root/build/$preset"
  [ -f "$suite/CMakeCache.txt" ] || (cd "$root" && cmake --preset "$preset") >"$out/suite-build.log" 2>&1 ||
    fail "configuring the suite failed: $out/suite-build.log"
fi
# One build of the suite at a time: grading tests for several families run side by side on a host of
# several GPUs, each starting here, and two ninja runs in one build folder can corrupt its logs.
build_lock=()
command -v flock >/dev/null && build_lock=(flock "$suite/.kconform-grading-build.lock")
${build_lock[@]+"${build_lock[@]}"} cmake --build "$suite" --target "${family}_grading_tests" kconform_submission_probe kconform_runner \
  kconform_grade_report kconform_sandbox_run >>"$out/suite-build.log" 2>&1 ||
  fail "building the suite's grading programs failed: $out/suite-build.log"
program="$suite/grading/${family}_grading_tests"
probe="$suite/grading/kconform_submission_probe"
sandbox_run="$suite/grading/executor/kconform_sandbox_run"
executor="$suite/grading/executor/kconform_executor"
runner="$suite/tools/runner/kconform_runner"
reporter="$suite/tools/grade_report/kconform_grade_report"
# Run as root, the judge starts each executor as uid 65534 (grading/executor/sandbox.hpp), which must
# reach the executor program, the submission's library ($out/<student>/lib) and the tool's report
# channel ($out/<student>/run): every folder above them searchable by it. Found on an H100 with --out
# under /root (mode 0700): every case failed "could not load the submission: Permission denied" and
# a correct submission scored 10. A folder above --out is the instructor's to choose, so grading
# stops here, before any student is built and before --out's mode is changed. --out and the folders
# grade.sh makes under it are set to search without listing for others (o+x, o-r: a sanitizer run's
# executor may read any file it can name, docs/grading.md, "Trust boundary").
if [ "$(id -u)" = 0 ]; then
  . "$root/scripts/sandbox_reach.sh" || fail "scripts/sandbox_reach.sh is missing"
  for needed in "$out" "$executor"; do
    if blocked=$(sandbox_uid_blocked_at "$needed") && [ -n "$blocked" ]; then
      fail "$needed is out of reach of the sandbox's uid $sandbox_uid (the executor runs as it): $blocked has mode" \
        "$(stat -L -c %a -- "$blocked" 2>/dev/null || echo unknown), and others need search (x) on every folder" \
        "above; choose --out and the suite's build in folders others can search (e.g. under /tmp or the" \
        "repository), or chmod o+x $blocked"
    fi
  done
  chmod o+x,o-r "$out" || fail "cannot set $out to search without listing for others"
  sandbox_uid_can -x "$out" || fail "the sandbox's uid $sandbox_uid cannot enter $out (an ACL?)"
  sandbox_uid_can -x "$executor" || fail "the sandbox's uid $sandbox_uid cannot run $executor"
fi
if [ -z "$rubric" ]; then
  rubric="$out/rubric.json"
  "$reporter" default-rubric --family "$family" >"$rubric" || fail "could not write the default rubric"
fi

# Every device allocation the submission makes goes through grading/submission_guard.cpp, which
# holds it to KCONFORM_SUBMISSION_MEMORY_LIMIT_MIB (4096) per process: grading processes share GPUs;
# every kernel launch too, so the grading program can see which kernels the submission launched.
submission_guard=()
# The calls it wraps: grading/submission_guard_calls.txt (its CPU test links with the same list).
for call in $(cat "$root/grading/submission_guard_calls.txt"); do
  submission_guard+=(-Xlinker "--wrap=$call")
done
# The guard is the grader's own code, the same for every student: compiled once here into an object
# (in a folder of this run's only: mktemp's, mode 0700, which no submission's build or probe writes),
# not once per student's link, which took 1.3 s of the
# 3.1 s a student's build costs (measured on a 2-core CI machine; the link alone then takes 0.2 s).
scratch=$(mktemp -d /tmp/kconform-grade-XXXXXX) || fail "cannot make a scratch folder in /tmp"
reference_cache=  # set with the CTest project below; both go when grade.sh ends
trap 'rm -rf "$scratch" ${reference_cache:+"$reference_cache"}' EXIT
guard_object="$scratch/submission_guard.o"
nvcc -std=c++17 -O3 -c -Xcompiler -fPIC,-fvisibility=hidden -o "$guard_object" "$root/grading/submission_guard.cpp" \
  >"$scratch/guard.log" 2>&1 || fail "the grader's guard (grading/submission_guard.cpp) does not compile: $(tail -5 "$scratch/guard.log")"

# ---- one submission's build: <student dir> <source> ----
# The contract header is forced in, so a definition with another signature conflicts with the
# declaration and the compiler names the entry point. -fvisibility=hidden: only the entry points (and
# the guard's two readouts) are exported. -z defs: every symbol must resolve against the CUDA runtime, cuBLAS and the C/C++
# libraries, never against the grading program. cuBLAS is linked so a submission that calls it
# builds, runs and is graded; the rubric decides what library use costs.
build_submission() {
  local dir=$1 source=$2 started status=ok arch
  started=$(date +%s.%N)
  mkdir -p "$dir/lib"
  chmod o+x,o-r "$dir" "$dir/lib"  # the executor (uid 65534) loads the library from here (sandbox_reach.sh above)
  if [ $have_gpu = 1 ]; then arch=native; else arch=sm_90; fi
  : >"$dir/libraries.txt"
  : >"$dir/suite_symbols.txt"
  echo '{}' >"$dir/traits.json"
  # Two steps: the student's file alone into an object (so what it references can be read apart from
  # the guard's), then that object and the guard into the library.
  if ! { timeout 300 nvcc -std=c++17 -O3 -lineinfo -arch="$arch" -c -Xcompiler -fPIC,-fvisibility=hidden \
           -I "$root/grading/contract" -include "kconform_${family}_submission.h" \
           -o "$dir/lib/submission.o" "$source" &&
         timeout 300 nvcc -std=c++17 -O3 -arch="$arch" -shared -Xcompiler -fPIC,-fvisibility=hidden --cudart shared \
           -o "$dir/lib/libsubmission.so" "$dir/lib/submission.o" "$guard_object" \
           -Xlinker -z,defs "${submission_guard[@]}" -lcublas; } >"$dir/compile.log" 2>&1; then
    status=compile_error
    grep -qE "undefined reference|undefined symbol" "$dir/compile.log" && status=link_error
    grep -qE "(conflicting|incompatible|more than one).*\bkc_|\bkc_[a-z_]+.*(conflicting|incompatible)" "$dir/compile.log" &&
      status=signature_error
  else
    chmod o+r "$dir/lib/libsubmission.so"  # the executor (uid 65534) loads it, whatever the umask
    # Library code: imports from the CUDA libraries, and CUB/Thrust code instantiated in it.
    { nm -D --undefined-only "$dir/lib/libsubmission.so" | awk '{print $NF}' |
        grep -E '^(cublas|cusparse|cusolver|cufft|curand|cudnn|nvrtc)' | sed 's/@.*//'
      nm -C "$dir/lib/libsubmission.so" | grep -oE '\b(cub|thrust)::[A-Za-z_:0-9]*[A-Za-z_0-9]' | head -20
    } 2>/dev/null | sort -u >"$dir/libraries.txt"
    # The grader's own symbols, defined or imported (there is no way to reach them; trying is flagged):
    # the suite's (kc::), and the guard's as the student's file names them -- its exports
    # (kc_grader_*: calling them clears its records, declaring them hidden hides them from the grader)
    # and the linker's names around a wrapped call (__real_cudaMalloc reaches the runtime past the
    # guard, __wrap_* is the guard itself).
    { nm -C "$dir/lib/libsubmission.so" 2>/dev/null | sed -n 's/^.* [A-Za-z] \(kc::.*\)$/\1/p'
      nm "$dir/lib/submission.o" 2>/dev/null | awk '{print $NF}' | grep -E '^(kc_grader_|__real_|__wrap_)'
    } | sort -u >"$dir/suite_symbols.txt"
    # The probe loads the library, so the submission's static constructors run there: in the
    # executor's sandbox (grading/executor/sandbox.hpp), from a copy of the probe and the library in a
    # folder of their own that uid 65534 can read (wherever --out and the suite's build are).
    # A failure to stage it, or of the sandbox itself (126), is the grader's, never the student's.
    local stage probed
    if ! stage=$(mktemp -d /tmp/kconform-probe-XXXXXX) || ! chmod 0755 "$stage" ||
       ! cp "$probe" "$stage/probe" || ! cp "$dir/lib/libsubmission.so" "$stage/libsubmission.so" ||
       ! chmod 0755 "$stage/probe" "$stage/libsubmission.so"; then
      echo "grade.sh: could not stage the probe for $dir in /tmp" >&2
      exit 2
    fi
    timeout 60 "$sandbox_run" --scratch "$stage/scratch" --readable "$stage" -- \
      "$stage/probe" "$family" "$stage/libsubmission.so" >"$dir/traits.json" 2>"$dir/probe.log"
    probed=$?
    rm -rf "$stage"
    if [ $probed -eq 126 ]; then
      echo "grade.sh: the sandbox could not start the probe: $(tail -1 "$dir/probe.log")" >&2
      exit 2
    fi
    if [ $probed -ne 0 ]; then
      case $probed in 3) status=signature_error ;; *) status=load_error ;; esac
      { echo "The submission built but cannot be graded:"; cat "$dir/probe.log"; } >>"$dir/compile.log"
      echo '{}' >"$dir/traits.json"
    fi
  fi
  "$probe" record "$status" "$dir/compile.log" "$dir/libraries.txt" "$dir/suite_symbols.txt" "$dir/traits.json" \
    "$(awk -v end="$(date +%s.%N)" -v start="$started" 'BEGIN { printf "%.1f", end - start }')" >"$dir/build.json"
  echo "$status"
}

# ---- the students ----
declare -a names sources
if [ -n "$submission" ]; then
  names=("${student:-$(basename "$submission" .cu)}")
  sources=("$(cd "$(dirname "$submission")" && pwd)/$(basename "$submission")")
  dirs=("$out")
else
  dirs=()
  for entry in "$batch"/*; do
    if [ -d "$entry" ]; then
      file=$(find "$entry" -maxdepth 1 -name '*.cu' | sort | head -1)
      [ -n "$file" ] || { echo "grade.sh: $entry holds no .cu file: skipped" >&2; continue; }
    elif [ "${entry%.cu}" != "$entry" ]; then
      file=$entry
    else
      continue
    fi
    n=$(basename "${entry%.cu}")
    names+=("$n")
    sources+=("$(cd "$(dirname "$file")" && pwd)/$(basename "$file")")
    dirs+=("$out/$n")
  done
  [ ${#names[@]} -gt 0 ] || fail "no submission (a .cu file or a folder holding one) in $batch"
fi

# $slots: grading processes per GPU (KCONFORM_GRADING_SLOTS_PER_GPU, read at the top; default 8, the
# classes of 100 measured in docs/grading.md, "Class of 100"; the memory rule below caps it):
# issue 33's lever "more processes per GPU where memory allows", measured in docs/grading.md.
# Neighbours may not starve each other: every process is held (by the runner, from outside) to
# process_memory_mib of device memory, and no more processes share a GPU than its memory holds at that
# limit. The smallest GPU decides.
process_memory_mib=8192
if [ $have_gpu = 1 ]; then
  smallest_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | sort -n | head -1)
  fit=$(( ${smallest_mib:-0} * 9 / 10 / process_memory_mib ))
  [ "$fit" -ge "$slots" ] || slots=$(( fit > 0 ? fit : 1 ))
  # And at most 16 grading processes at once ($host_processes) over the GPUs this batch sees, whatever
  # their number: the driver starts them one at a time for the whole host, so on 4 H200s a class of 100 at 32
  # at once (8 a GPU) was slower than on 2 at 16 (ctest_config/slots_per_gpu.sh has the numbers). One
  # or two GPUs keep their 8; four get 4 each.
  slots=$(KCONFORM_HOST_GPU_PROCESSES=$host_processes "$root/ctest_config/slots_per_gpu.sh" "$slots") ||
    fail "KCONFORM_HOST_GPU_PROCESSES must be a whole number of at least 1"
fi
[ "$overlap" -le "$slots" ] || fail "--performance-overlap $overlap is more than the $slots slots a GPU (KCONFORM_GRADING_SLOTS_PER_GPU, at most KCONFORM_HOST_GPU_PROCESSES ($host_processes) over the GPUs)"
if [ "$overlap" -gt 1 ]; then  # before any build: the barrier's DEPENDS list is ';'-separated
  for name in "${names[@]}"; do
    case "$name" in *';'*) fail "--performance-overlap: a student name holds ';' ($name), which would split the barrier's list" ;; esac
  done
fi

echo "grading ${#names[@]} ${family} submission(s), seed $seed, into $out"
# Builds run $jobs at a time (nvcc is CPU-bound); each writes only its own folder.
for i in "${!names[@]}"; do
  rm -rf "${dirs[$i]}/run"
  mkdir -p "${dirs[$i]}"
  (build_submission "${dirs[$i]}" "${sources[$i]}" >"${dirs[$i]}/build.status") &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done
wait

# ---- the generated CTest project: one test per (submission, group), sanitizer tool, performance ----
project="$out/ctest"
# The batch's reference cache: this run's only (its entries are not keyed by the suite's sources, so
# another build's must never be read), emptied now and removed when grading ends.
reference_cache="$out/.reference-cache"
rm -rf "$reference_cache" && mkdir -m 0700 "$reference_cache" || fail "cannot create $reference_cache"
rm -rf "$project"
mkdir -p "$project"
testfile="$project/CTestTestfile.cmake"
# Every grading test's properties: on <resources>, started in the order of <cost> (CTest starts the
# highest first), with <threads> OpenMP threads, each kernel under 10 s, and the student's $env_list
# (the loop's) plus <more environment> (";"-led, or nothing).
grading_test_properties() {  # grading_test_properties <test> <resources> <cost> <threads> <more environment>
  cat >>"$testfile" <<EOF
set_tests_properties("$1" PROPERTIES RESOURCE_GROUPS "$2" TIMEOUT 1800 SKIP_RETURN_CODE 77 COST $3
  ENVIRONMENT "$env_list;OMP_NUM_THREADS=$4;KCONFORM_KERNEL_DEADLINE_S=10$5")
EOF
}
# One grading test: the runner over the grading program with <selection> (its --name and --unit or
# --units, already quoted for CMake), each case under <case timeout>. Reads the loop's $dir and $program.
add_runner_test() {  # add_runner_test <test> <resources> <case timeout> <selection> <cost> <threads> [<more environment>]
  echo "add_test(\"$1\" \"$runner\" run --exe \"$program\" $4 --report-dir \"$dir/run\" --case-timeout $3)" >>"$testfile"
  grading_test_properties "$1" "$2" "$5" "$6" "${7:-}"
}
# --performance-overlap above 1: the performance units wait for every other unit of the batch (a
# barrier test that DEPENDS on them all; CTest's DEPENDS waits for them to end, passed or not), at most
# <overlap> of them share a GPU's slots (each asks for ceil(slots / overlap)), and each takes the GPU's
# hold in the batch's folder for its case, waiting for it up to 1500 s (KCONFORM_GPU_HOLD_WAIT_S,
# under the tests' 1800 s CTest timeout: a kill while waiting is the grader's problem, not the student's).
not_performance=()
performance_resources() {  # performance_resources: the performance unit's RESOURCE_GROUPS
  [ "$overlap" -gt 1 ] && echo "gpus:$(((slots + overlap - 1) / overlap))" || echo "gpus:$slots"
}
hold_dir="$project/gpu-holds"
echo "# Generated by scripts/grade.sh: the grading run of ${#names[@]} submission(s)." >"$testfile"
to_grade=0 replayed=0  # replayed: submissions a replay (--only, --tool) has something to run for
# The order CTest starts a batch's tests in (COST, highest first), longest first so that no long unit
# is the batch's tail: measured on an H200 (class of 100 reductions, --processes per-student, 8 slots
# a GPU; docs/grading.md, "Session of 2026-11-27 (fourth)"), a student's shared value process took 12 s on average and up
# to 56 s, its sanitizer units 4-7 s each, its performance unit ~1.25 s. With the sanitizers first and
# the value processes after them, the last value processes ran with at most 2 of 8 slots busy for 22 s,
# while the performance units, which need every slot of the GPU (below), could not start. So: the
# shared value processes first (2000), then the sanitizer units (1000), then the value units of
# per-group grading (100); the performance units last (0), each alone on its GPU once the rest are done.
cost_values=2000 cost_sanitizer=1000 cost_group=100 cost_performance=0
# OpenMP threads: a grading process shares its GPU's host cores with the others (4 each, as before); a
# performance unit has its GPU to itself, and makes its inputs (2^24 elements for a reduction: 0.26 s
# at 4 threads, with the GPU held) with the host's cores over the host's GPUs: at most one performance
# unit a GPU, and on a host of several the other GPUs' grading goes on beside it (this batch's, or
# another batch pinned to another GPU: grade_synthetic_class.sh --side-by-side, the grading tests side
# by side), so the host's GPUs, not the ones this batch sees. With --performance-overlap the same: a
# case's OpenMP work (inputs, references) is inside its GPU hold, one case a GPU at a time.
threads_shared=4
host_gpus=$(env -u CUDA_VISIBLE_DEVICES "$root/ctest_config/visible_gpus.sh"); [ "${host_gpus:-0}" -ge 1 ] || host_gpus=1
threads_performance=$(( $(nproc) / host_gpus )); [ "$threads_performance" -ge 1 ] || threads_performance=1
# The cases the sanitizers run on: a few small, odd ones (grading/families/<family>.sanitizer).
sanitizer_filter=$(head -n 1 "$root/grading/families/$family.sanitizer" 2>/dev/null)
[ -n "$sanitizer_filter" ] || fail "grading/families/$family.sanitizer holds no gtest filter"
for i in "${!names[@]}"; do
  dir=${dirs[$i]}
  [ "$(cat "$dir/build.status")" = ok ] || continue
  mkdir -p "$dir/run"
  chmod o+x,o-r "$dir/run"  # the sanitizer's report channel (a FIFO, mode 0622) is opened here by the executor's tool
  rm -f "$dir/run/hangs.tsv"
  # Hangs cost seconds (issue 19): a spinning kernel ends at the in-process kernel deadline (10 s), a
  # host-side hang at the runner's per-case deadline (12 s; SIGKILL to the process group, which no
  # handler ignores), and all of a submission's units share one hang budget (60 s of hung cases,
  # counted in run/hangs.tsv): past it no unit starts another process and the cases left fail as not run.
  env_list="KCONFORM_SUBMISSION=$dir/lib/libsubmission.so;KCONFORM_SUBMISSION_TRAITS=$dir/traits.json"
  env_list+=";KCONFORM_SEED=$seed;KCONFORM_HANG_STREAK=3;KCONFORM_HANG_BUDGET_S=60;KCONFORM_HANG_BUDGET_FILE=$dir/run/hangs.tsv"
  # Device memory per grading process, as the driver counts it (tools/runner/device_memory_watch.hpp):
  # the submission's own 4 GiB (the in-process guard) and the grader's inputs and context beside it.
  env_list+=";KCONFORM_PROCESS_MEMORY_LIMIT_MIB=$process_memory_mib"
  # A case that fails out of device memory within its own limits is run again (3 times at most, after
  # 2, 4 and 8 s): a neighbour that took the memory by a route only that watch sees holds it until the
  # next poll, and takes it again in each fresh process until its unit ends.
  env_list+=";KCONFORM_OOM_RETRIES=3"
  # A case that failed so on all 4 runs is listed here, and runs again alone once the batch has ended
  # (scripts/rerun_memory_starved.sh): a neighbour can hold the device longer than 14 s.
  rm -f "$dir/run/memory_starved.tsv" "$dir/run/memory_starved.first-run.tsv" "$dir/run/memory_starved.rerun.tsv"
  env_list+=";KCONFORM_MEMORY_STARVED_FILE=$dir/run/memory_starved.tsv"
  env_list+=";KCONFORM_REQUIRE_GPU=1"
  # CPU references shared on disk by every grading process of this run (fixtures/run_cache.hpp): one
  # seed for the whole batch, so each reference is computed once, not once per student. Only the
  # judges use it, and only where the executor runs as uid 65534, which cannot write this folder
  # (grading/submission_library.cpp says why that matters).
  env_list+=";KCONFORM_RUN_CACHE=$reference_cache"
  # The submission runs in each grading program's sandboxed executor: a sanitizer wraps that process
  # (tools/runner: KCONFORM_EXECUTOR_WRAPPER), not the grading program.
  env_list+=";KCONFORM_TOOL_WRAPS_EXECUTOR=1"
  # No failing case's data dump (fixtures/failure_dump.hpp: up to 48 MB of text a large case, which
  # no report reads), except in a replay of named cases (--only), where someone is examining them.
  if [ -z "$only" ]; then env_list+=";KCONFORM_FAILURE_DUMPS=off"; else env_list+=";KCONFORM_GTEST_FILTER=$only"; fi
  # The units (one per group, and performance) the grading program lists for this submission's traits,
  # kept for the report: a group listed with no case is empty by the submission's declaration (one
  # configuration declared), not a fault (tools/grade_report/run_inputs.hpp, listed_units).
  KCONFORM_SUBMISSION_TRAITS="$dir/traits.json" "$runner" list --exe "$program" >"$dir/run/listed_units.tsv"
  units=$(cut -f1 "$dir/run/listed_units.tsv")
  [ -z "$only_tool" ] || units=''  # a tool's replay: that tool's unit alone (below)
  if [ -n "$only" ] && [ -z "$only_tool" ]; then
    # A replay runs the units that hold a case its filter names (a value group's, or the timed case's
    # performance unit), so that no unit runs with nothing to check, which fails as a unit that checks
    # nothing; listed_units.tsv keeps the whole listing for the report.
    units=$(KCONFORM_SUBMISSION_TRAITS="$dir/traits.json" "$runner" list --exe "$program" --filter "$only" | cut -f1) ||
      units=''
    [ -n "$units" ] && replayed=$((replayed + 1)) ||
      echo "grade.sh: --only '$only' names no case of ${names[$i]} (or its cases could not be listed): nothing of it runs" >&2
  fi
  if [ "$processes" = per-student ]; then
    # The value groups in shared processes, each still reported as grade.<group> (kconform_runner --units).
    value_units=$(echo "$units" | grep -vx performance | paste -sd, -)
    [ -z "$value_units" ] || {
      add_runner_test "${names[$i]}.values" gpus:1 12 "--name \"grade.values\" --units \"$value_units\" --name-prefix \"grade.\"" \
        $cost_values $threads_shared
      not_performance+=("${names[$i]}.values")
    }
    units=$(echo "$units" | grep -x performance)
  fi
  for unit in $units; do
    resources="gpus:1" case_timeout=12 cost=$cost_group threads=$threads_shared more=''
    # The performance case times for seconds by design (its kernels still face the 10 s deadline).
    if [ "$unit" = performance ]; then
      resources=$(performance_resources) case_timeout=60 cost=$cost_performance threads=$threads_performance
      [ "$overlap" -eq 1 ] || more=";KCONFORM_PERFORMANCE_HOLD_DIR=$hold_dir;KCONFORM_GPU_HOLD_WAIT_S=1500"
    else
      not_performance+=("${names[$i]}.$unit")
    fi
    add_runner_test "${names[$i]}.$unit" "$resources" $case_timeout "--name \"grade.$unit\" --unit \"$unit\"" \
      $cost $threads "$more"
    [ "$unit" != performance ] || [ "$overlap" -eq 1 ] ||
      echo "set_tests_properties(\"${names[$i]}.$unit\" PROPERTIES DEPENDS \"kconform.performance_barrier\")" >>"$testfile"
  done
  if [ -z "$only" ] || [ -n "$only_tool" ]; then
    [ -z "$only_tool" ] || replayed=$((replayed + 1))
    for tool in memcheck racecheck synccheck; do
      [ -z "$only_tool" ] || [ "$tool" = "$only_tool" ] || continue
      echo "add_test(\"${names[$i]}.sanitizer.$tool\" \"$root/ctest_config/run_sanitizer.sh\" $tool clean \"$runner\" \"$program\" \"$sanitizer_filter\" \"grade.sanitizer.$tool\" \"$dir/run\")" >>"$testfile"
      # A tool is scored once (clean or not): its unit ends at the tool's first finding, the cases left
      # skipped as not run (tools/runner, KCONFORM_TOOL_UNTIL_FINDING).
      grading_test_properties "${names[$i]}.sanitizer.$tool" gpus:1 $cost_sanitizer $threads_shared \
        ";KCONFORM_CASE_TIMEOUT_S=12;KCONFORM_TOOL_UNTIL_FINDING=1"
      not_performance+=("${names[$i]}.sanitizer.$tool")
    done
  fi
  to_grade=$((to_grade + 1))
done

if [ "$overlap" -gt 1 ]; then
  mkdir -p "$hold_dir" && chmod 700 "$hold_dir" || fail "cannot create $hold_dir"
  # The hold is a flock: a folder on a file system without it fails here, not in every student's case
  # (where it would be each case's grader_problem). Without util-linux's flock(1) it is not tried.
  if command -v flock >/dev/null; then
    flock -n "$hold_dir/.probe" true || fail "flock does not work in $hold_dir: --performance-overlap needs it"
  else
    echo "grade.sh: no flock(1) to try $hold_dir with; a file system without flock fails each performance case" >&2
  fi
  # The performance units' barrier: it runs (doing nothing) once every other unit has ended.
  {
    echo "add_test(\"kconform.performance_barrier\" \"$(command -v cmake)\" -E true)"
    printf 'set_tests_properties("kconform.performance_barrier" PROPERTIES COST 0 DEPENDS "%s")\n' \
      "$(IFS=';'; echo "${not_performance[*]}")"
  } >>"$testfile"
fi

# A replay that names no case of any submission would run nothing and report every group empty.
[ -z "$only$only_tool" ] || [ $to_grade -eq 0 ] || [ $replayed -gt 0 ] ||
  fail "--only '$only' names no case of any submission: nothing to replay (a report's replay line names one)"

started=$(date +%s)
if [ $to_grade -gt 0 ]; then
  [ $have_gpu = 1 ] || fail "$to_grade submission(s) built, and grading them needs a CUDA GPU (nvidia-smi -L found none)"
  "$root/ctest_config/make_resource_spec.sh" "$project/resources.json" "$slots"
  gpus=$("$root/ctest_config/visible_gpus.sh")  # CUDA_VISIBLE_DEVICES narrows it (a test pinned to one GPU)
  [ "${gpus:-0}" -ge 1 ] || gpus=1
  ctest --test-dir "$project" --resource-spec-file "$project/resources.json" -j $((gpus * slots)) >"$project/ctest.log" 2>&1
  # ctest's own status is the students' (a failed case fails a test); the reports below carry it.
  # The tests of cases that never got device memory beside the batch, again, one at a time.
  for i in "${!names[@]}"; do printf '%s\t%s\n' "${names[$i]}" "${dirs[$i]}"; done >"$project/students.tsv"
  "$root/scripts/rerun_memory_starved.sh" "$project" "$project/resources.json" "$project/students.tsv"
fi
echo "ran in $(($(date +%s) - started)) s"

# ---- the reports ----
status=0
for i in "${!names[@]}"; do
  "$reporter" student --run-dir "${dirs[$i]}" --rubric "$rubric" --family "$family" --student "${names[$i]}" \
    --submission "${sources[$i]}" --seed "$seed" --out "${dirs[$i]}" || status=2
  [ -f "${dirs[$i]}/summary.json" ] && echo "${names[$i]}: $(grep -oE '"(score|max_score|verdict)":("[^"]*"|[0-9.]+)' \
    "${dirs[$i]}/summary.json" | head -3 | tr '\n' ' ')"
done
if [ -n "$batch" ]; then
  "$reporter" class --out "$out/class.csv" "${dirs[@]}" || status=2
  echo "class summary: $out/class.csv"
fi
exit $status
