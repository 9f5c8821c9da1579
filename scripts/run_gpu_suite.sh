#!/usr/bin/env bash
# The main job: the whole kconform run on this machine's GPU, with a report.
#
#   scripts/run_gpu_suite.sh [report-dir]        (default: reports/<date>-<gpu>)
#
# Configures and builds the `gpu` preset (native architecture), writes a CTest resource spec for
# the GPUs present (KCONFORM_GPU_SLOTS processes per GPU, default 10), runs every test (conformance,
# known-bad, sanitizers, benchmarks) and writes to the report folder: summary.md (GPU, driver,
# counts of CTest units and of cases, processes, wall times, the ten slowest units, benchmark
# tables), ctest.log, junit.xml (one testcase per unit), cases.xml (one testcase per case, merged
# from units/), units/ (each unit's JUnit and statistics, written by tools/runner), build.log,
# nvidia-smi.txt, resources.json, each benchmark's .md/.csv, and failures/ (the data of each
# failed comparison: inputs, expected, actual).
# Extra arguments after the folder go to both phases' ctest (e.g. -L reduction, -R SharedTiled,
# -E '^benchmark'). Exclude by name (-E), not by label: CTest ANDs a command-line -LE with the
# preset's exclude filter (a test is left out only if it matches both), which would let the alone
# and grading tests back into the shared phase, so -LE is refused.
# Split across machines: KCONFORM_SHARD=i/N runs every N-th test from the i-th (1-based; CTest's
# -I i,,N); merge the reports with scripts/merge_reports.sh.
# Exit status: ctest's (non-zero if any test failed or the build broke).
set -u
for arg in "$@"; do
  case "$arg" in
    -LE* | --label-exclude*)
      echo "run_gpu_suite.sh: $arg: exclude by test name (-E <regex>) instead; CTest ANDs a command-line -LE with" \
        "the phases' label filters (presets gpu-shared, gpu-alone), which would run tests in the wrong phase" >&2
      exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
slug=$(echo "${gpu_name:-no-gpu}" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-')
out=${1:-reports/$(date +%Y%m%d-%H%M%S)-$slug}
shift || true
mkdir -p "$out"
out=$(cd "$out" && pwd)

# A missing or broken GPU must fail this run, not skip its way to green.
export KCONFORM_REQUIRE_GPU=1
# CUDA numbers the GPUs as nvidia-smi does (by PCI bus), so a CTest resource id, a unit's GPU in the
# runner's statistics and gpu_busy.csv's index name the same card (summary.md's per-GPU figures).
export CUDA_DEVICE_ORDER=PCI_BUS_ID
export KCONFORM_REPORT_DIR="$out"
# CPU references shared on disk by this run's processes (fixtures/run_cache.hpp). By default this run's
# only: emptied before the tests and removed after them (or when the script is interrupted). With
# KCONFORM_REFERENCE_CACHE=<folder> (opt-in: a CI runner that keeps a cache folder between runs) that
# folder is used and kept: its entries are named by the build's source version (a hash of every
# source a reference depends on, and the compiler and flags), so a changed reference misses.
if [ -n "${KCONFORM_REFERENCE_CACHE:-}" ]; then
  mkdir -p "$KCONFORM_REFERENCE_CACHE" && KCONFORM_RUN_CACHE=$(cd "$KCONFORM_REFERENCE_CACHE" && pwd)
  export KCONFORM_RUN_CACHE
  drop_cache=
else
  export KCONFORM_RUN_CACHE="$out/.run-cache"
  rm -rf "$KCONFORM_RUN_CACHE"
  drop_cache=$KCONFORM_RUN_CACHE
fi
# The samplers and the progress watcher are background jobs: an interrupted run takes them with it.
sampler= cpu_sampler= watcher=
trap '[ -z "$drop_cache" ] || rm -rf "$drop_cache"; kill $sampler $cpu_sampler $watcher 2>/dev/null' EXIT

nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || echo "nvidia-smi failed: is there a GPU?" >>"$out/nvidia-smi.txt"
slots=${KCONFORM_GPU_SLOTS:-10}
gpus=$(ctest_config/visible_gpus.sh); [ "${gpus:-0}" -ge 1 ] || gpus=1  # CUDA_VISIBLE_DEVICES narrows it
ctest_config/make_resource_spec.sh "$out/resources.json" "$slots"
shard_args=()
if [ -n "${KCONFORM_SHARD:-}" ]; then
  shard_args=(-I "${KCONFORM_SHARD%/*},,${KCONFORM_SHARD#*/}")
fi

t0=$(date +%s)
# The shared phase runs at most 16 GPU processes at once (KCONFORM_HOST_GPU_PROCESSES), or fewer
# where the GPUs have fewer slots: ctest_config/slots_per_gpu.sh, shared with grade.sh. Wider lost:
# on 4 H100s at 5c2f5d3, 40 at once (slots x GPUs) took the shared phase from 50 s (16 at once,
# b498e02) to 66-69 s, the CPU references' threads oversubscribing the cores (a third of
# polybench_covariance.conformance.Large's cases took as long as all of them had) and 40 CUDA
# start-ups at once, which the driver does one at a time (first cases 10.9 s in the median unit).
shared_slots=$(ctest_config/slots_per_gpu.sh "$slots" "$gpus") ||
  { echo "run_gpu_suite.sh: KCONFORM_GPU_SLOTS and KCONFORM_HOST_GPU_PROCESSES must be whole numbers of at least 1"; exit 2; }
shared_width=$(( shared_slots * gpus ))
# On several GPUs that cap is the shared phase's slots, floor(16 / GPUs) a GPU (8 on 2, 5 on 3, 4 on
# 4; at least 1), not its jobs: CTest runs 6 jobs more than those slots, as on one GPU (10 slots, the
# preset's 16 jobs), so the CPU tests run beside the GPU units from the start. With the jobs as the
# cap they all waited for the GPU units (16 jobs, 20 or 40 slots): on 2 H100s at 545767d the shared
# phase's last 6 s were CPU tests alone (RunnerDeadline's 4 s sleeps, scripts.every_gpu_registration),
# the GPUs idle. Every test of that phase asks for one slot of one GPU (labels.gpu_run_phases checks it).
shared_jobs=() shared_spec=$out/resources.json
if [ "$gpus" -gt 1 ]; then
  shared_jobs=(-j $(( shared_width + 6 )))
  shared_spec=$out/resources-shared.json
  ctest_config/make_resource_spec.sh "$shared_spec" "$shared_slots"
fi
# Cores over the processes at once, rounded up: they wait for the GPU blocking, so a core is rarely
# held by two threads at once, and a long reference on 1 thread would trail the phase.
threads=$(( ($(nproc) + shared_width - 1) / shared_width )); [ "$threads" -ge 1 ] || threads=1
# The host, recorded here for summary.md (a merged report is summarised on another machine).
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$model" ] || model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
echo "${model:-unknown CPU}, $(nproc) logical CPUs" >"$out/host.txt"
# Progress while it runs (scripts/progress_line.sh: build, then the two test phases below): one live line on a terminal, a plain line every
# 15 s in a CI log; the build's and CTest's own output go to their logs.
. scripts/progress_watch.sh  # watch_start, watch_stop
echo "kconform GPU run on ${gpu_name:-no GPU found}: logs and report in $out"
watch_start build "$out/build.log"
# Several GPUs: a test that needs a GPU to itself (label alone) gets *its* GPU, not the machine
# (KCONFORM_ALONE_PER_GPU, ctest_config/KconformTesting.cmake), so the alone phase runs one per GPU at
# once, each with the cores / GPUs for its OpenMP threads. One GPU: alone on the machine, as before.
alone_per_gpu=OFF alone_threads=$(nproc) alone_jobs=()
if [ "$gpus" -gt 1 ]; then
  alone_per_gpu=ON alone_threads=$(( $(nproc) / gpus )); [ "$alone_threads" -ge 1 ] || alone_threads=1
  alone_jobs=(-j "$gpus")
fi
# KCONFORM_PACK_SECONDS=<s>: the shared phase's small units in packs of about s recorded seconds, one
# process each (ctest_config/KconformTesting.cmake says why); 0, every unit its own process. Unset: 12
# for a whole run, 0 when ctest arguments follow the folder (a name filter, -R SharedTiled, sees a
# pack's name, not its units', and would leave a packed unit out without a word). On one H200
# (d51eadb, one run each, the second reusing the first's build) 12 s packs ran the same 17,485 cases in
# 90 processes instead of 112, their opening of the GPU 79 unit-seconds instead of 126, the shared
# phase 62 s instead of 67 (docs/architecture.md, "Several GPUs"). Passed every time, so a build
# configured with one setting is not run with another.
if [ -n "${KCONFORM_PACK_SECONDS:-}" ]; then pack_seconds=$KCONFORM_PACK_SECONDS
elif [ $# -eq 0 ]; then pack_seconds=12
else pack_seconds=0; fi
[[ "$pack_seconds" =~ ^(0|[1-9][0-9]*)$ ]] || { echo "run_gpu_suite.sh: KCONFORM_PACK_SECONDS must be a whole number (0: off)"; exit 2; }
export KCONFORM_PACK_SECONDS=$pack_seconds  # summary.md names it
{ cmake --preset gpu -DKCONFORM_GPU_SLOTS="$slots" -DKCONFORM_REFERENCE_THREADS="$threads" \
    -DKCONFORM_ALONE_PER_GPU="$alone_per_gpu" -DKCONFORM_ALONE_REFERENCE_THREADS="$alone_threads" -DKCONFORM_GPU_COUNT="$gpus" \
    -DKCONFORM_PACK_SECONDS="$pack_seconds" &&
    cmake --build --preset gpu; } >"$out/build.log" 2>&1
build_status=$?
watch_stop
t1=$(date +%s)
rm -rf build/gpu/gtest-xml build/gpu/units "$out/perf"  # this run's verdicts only (a reused folder's perf rows too)
ctest_status=1
if [ $build_status -eq 0 ]; then
  # Two phases, so the GPU is never drained for a test that must have it alone: first every test that
  # shares the GPU (units KCONFORM_GPU_SLOTS at a time, sanitizer runs, CPU tests), then the ones that
  # need the machine to themselves (perf points, benchmarks, profile runs, schedule perturbation),
  # back to back. In one CTest run a RUN_SERIAL test waits for every running test to end and holds the
  # others back while it runs, so the GPU idled behind each one's slowest neighbour (issue 21).
  # Each phase's last whole-run time (same GPU, no extra arguments) makes the estimate of what is left.
  whole_run=0; [ $# -eq 0 ] && [ -z "${KCONFORM_SHARD:-}" ] && whole_run=1
  # How busy the GPU is while the tests run (summary.md's "Time" line): utilization every 0.5 s.
  sampler=
  if command -v nvidia-smi >/dev/null; then
    # Per GPU (index, UUID, utilization), only the ones this run's CUDA sees (a shard pinned to one).
    only=()
    [[ "${CUDA_VISIBLE_DEVICES:-}" =~ ^[0-9]+(,[0-9]+)*$ ]] && only=(-i "$CUDA_VISIBLE_DEVICES")
    nvidia-smi "${only[@]}" --query-gpu=index,uuid,utilization.gpu --format=csv,noheader,nounits -lms 500 \
      >"$out/gpu_busy.csv" 2>/dev/null &
    sampler=$!
  fi
  ctest_status=0 ran_some=0
  phase_seconds=
  for phase in shared alone; do
    # The presets gpu-shared and gpu-alone split gpu by label alone, which every RUN_SERIAL test
    # carries (ctest_config/KconformTesting.cmake; labels.gpu_run_phases checks both). Presets, not
    # -LE here: CTest ANDs a command-line -LE with the preset's exclude filter, so the first version's
    # -LE '^(grading|alone)$' beside --preset gpu left out only tests matching both (the H100 run at
    # cb4e661 ran the alone tests in both phases).
    last_run=build/gpu/last_test_seconds.$phase last_s=
    [ $whole_run -eq 1 ] && [ -f "$last_run" ] && last_s=$(cat "$last_run")
    # The measured seconds of this phase's tests (CTest's cost data: seeded from
    # ctest_config/test_costs.txt in a fresh build; a line of a test that has not passed yet, runs 0,
    # holds its declared cost, not seconds) for the estimate of what is left, over the phase's GPU
    # slots (all GPUs').
    parallel=1; [ "$phase" = shared ] && parallel=$shared_width; [ "$phase" = alone ] && [ "$gpus" -gt 1 ] && parallel=$gpus
    ctest --preset gpu-$phase -N "${shard_args[@]}" "$@" 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: *//p' |
      awk 'NR == FNR { if (NF == 3 && $2 > 0 && $3 < 1000) cost[$1] = $3; next } ($1 in cost) { print $1, cost[$1] }' \
        build/gpu/Testing/Temporary/CTestCostData.txt - >"$out/.phase-costs" 2>/dev/null
    p0=$(date +%s)
    watch_start "$phase" "$out/ctest-$phase.log" "$last_s" "$out/.phase-costs" "$parallel"
    # How busy the host's CPUs are in this phase (summary.md's "Time" line), every 0.5 s.
    scripts/cpu_sampler.sh 0.5 >"$out/cpu_busy-$phase.csv" 2>/dev/null &
    cpu_sampler=$!
    jobs=("${shared_jobs[@]}") spec=$shared_spec  # shared: the preset's 16 jobs on one GPU (above)
    [ "$phase" = alone ] && jobs=("${alone_jobs[@]}") spec=$out/resources.json
    ctest --preset gpu-$phase --resource-spec-file "$spec" --output-junit "$out/junit-$phase.xml" \
      "${jobs[@]}" "${shard_args[@]}" "$@" >"$out/ctest-$phase.log" 2>&1
    status=$?
    kill "$cpu_sampler" 2>/dev/null; wait "$cpu_sampler" 2>/dev/null; cpu_sampler=
    watch_stop
    # A phase that selects nothing (e.g. -L known_bad leaves no alone test) is not a failure of a
    # narrowed run by itself (both selecting nothing is, below); in a whole run it is. CTest's own
    # line, matched whole: a test's output that quotes it must not pass for it.
    if grep -qx 'No tests were found!!!' "$out/ctest-$phase.log" && ! grep -q 'tests failed out of' "$out/ctest-$phase.log"; then
      [ $whole_run -eq 1 ] || status=0
    else
      ran_some=1
    fi
    [ $status -ne 0 ] && ctest_status=$status
    phase_seconds="${phase_seconds:+$phase_seconds, }$phase $(($(date +%s) - p0)) s"
    [ $whole_run -eq 1 ] && echo $(($(date +%s) - p0)) >"$last_run"
  done
  # After the alone phase too (the perf points and benchmarks read it); a kept folder stays.
  [ -z "$drop_cache" ] || rm -rf "$drop_cache"
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null && wait "$sampler" 2>/dev/null; sampler=
  [ $ran_some -eq 1 ] || { ctest_status=1; echo "No test matched: ctest $*"; }
  export KCONFORM_PHASE_SECONDS="$phase_seconds"  # summary.md's build/tests line
  # One CTest log and one junit.xml for the run, as one CTest run would have written them.
  cat "$out/ctest-shared.log" "$out/ctest-alone.log" >"$out/ctest.log" 2>/dev/null
  scripts/merge_junit.sh kconform "$out/junit-shared.xml" "$out/junit-alone.xml" >"$out/junit.xml"
  rm -f "$out/junit-shared.xml" "$out/junit-alone.xml" "$out/.phase-costs"
  # The seconds CTest keeps per test (its running average), which orders the next run longest first:
  # copy it over ctest_config/test_costs.txt to refresh what a fresh build starts from, from a run
  # with KCONFORM_PACK_SECONDS=0 (a packed run's file holds the packs' seconds and its units' old ones).
  cp build/gpu/Testing/Temporary/CTestCostData.txt "$out/test_costs.txt" 2>/dev/null
fi
t2=$(date +%s)
[ -d build/gpu/gtest-xml ] && rm -rf "$out/gtest-xml" && cp -r build/gpu/gtest-xml "$out/gtest-xml"  # CPU tests

scripts/summarise_run.sh "$out" "$gpu_name" "$((t1 - t0))" "$build_status" "$((t2 - t1))" "$ctest_status" "$*" >"$out/summary.md"
# report.html: the whole run on one self-contained page, from the folder's files (tools/run_report).
run_report=build/gpu/tools/run_report/kconform_run_report page="report.html (the run on one page), "
if [ ! -x "$run_report" ]; then page= && echo "report.html not written: $run_report is not built"
elif ! "$run_report" --report-dir "$out" >/dev/null; then page=; fi  # it says why on stderr
# The end of the run fits a screen: the summary up to its tables (verdict, counts, failures, the
# slowest units); the tables stay in summary.md.
awk 'NR > 1 && /^(## Known-bad rows|## Performance|# )/ { exit }
  /^## The ten slowest units/ { slow = 1; $0 = "## The slowest units (ten in summary.md)" } slow && /^\| [^u-]/ { if (++rows > 5) next } { print }' "$out/summary.md"
echo "Report: $out/${page}summary.md (every table), junit.xml, cases.xml, units/, ctest.log, build.log"
if [ $build_status -ne 0 ]; then
  echo "BUILD FAILED: last lines of $out/build.log"
  tail -n 40 "$out/build.log"
  exit $build_status
fi
exit $ctest_status
