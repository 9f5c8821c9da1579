#!/usr/bin/env bash
# run_sanitizer.sh <tool> <clean|expect-hazard> <kconform_runner> <test program> <gtest filter> <name> <build dir>
#
# Runs GoogleTest cases under compute-sanitizer through kconform_runner (tools/runner), on exact-size
# buffers (KCONFORM_EXACT_BUFFERS=1: no guard zones, no poison — a guard would absorb a read one past
# the end, and poison would make every byte "initialised", so memcheck and initcheck could see
# nothing). The runner gives each hazard the tool reports to the case whose "[ RUN ]" line precedes
# it, and a case that hangs or crashes under the tool costs that case only:
#   clean          the filtered cases, as few processes as possible; a case passes only if the tool
#                  reported nothing during it, warnings included (racecheck reports the classic
#                  volatile warp race as a warning, with "0 errors", so --error-exitcode alone would
#                  let it through)
#   expect-hazard  the known-bad twin: each case (a registry row for this tool) in a process of its
#                  own; a case passes only if the tool reported a hazard in it. No case selected
#                  means no row expects the tool (reported as skipped, never as passed).
# Both modes leave the checker's own kernels (fixtures/) uninstrumented, except under grading
# (sanitizer_exclusions.sh); KCONFORM_SANITIZER_ARGS adds a probe's options (below).
# Exits 77 (CTest's SKIP_RETURN_CODE here) where there is no GPU or no compute-sanitizer.
set -u
tool=$1 mode=$2 runner=$3 exe=$4 filter=$5 name=$6 build_dir=$7
skip=77
export KCONFORM_EXACT_BUFFERS=1
# Kernels run 10-100x slower under a sanitizer: a later deadline before a launch counts as hung.
export KCONFORM_KERNEL_DEADLINE_S=${KCONFORM_KERNEL_DEADLINE_S:-300}

sanitizer=$(command -v compute-sanitizer || true)
[ -n "$sanitizer" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
# Under KCONFORM_REQUIRE_GPU=1 (the GPU run) a missing GPU or sanitizer is a failure, never a skip.
missing=$skip
case "${KCONFORM_REQUIRE_GPU:-}" in "" | 0) ;; *) missing=1 ;; esac
if [ -z "$sanitizer" ]; then echo "SKIPPED: compute-sanitizer is not installed"; exit $missing; fi
if ! nvidia-smi -L >/dev/null 2>&1; then echo "SKIPPED: no CUDA GPU on this machine (nvidia-smi -L failed)"; exit $missing; fi

args=(--tool "$tool" --print-limit 25)
case "$tool" in
  memcheck) args+=(--leak-check full) ;;
  racecheck) args+=(--racecheck-report all) ;;
esac
# The checker's own kernels run uninstrumented (sanitizer_exclusions.sh says why; nothing under grading).
if ! own_kernels=$("$(dirname "$0")/sanitizer_exclusions.sh"); then echo "FAILED: sanitizer_exclusions.sh"; exit 1; fi
extra_args=()
[ -z "$own_kernels" ] || mapfile -t extra_args <<<"$own_kernels"
# KCONFORM_SANITIZER_ARGS: a probe's further options for the tool, split on blanks (--kernel-name
# kns=tiled checks only kernels whose mangled names hold "tiled"): said in the log, since it can narrow
# what a passing run checked; ignored under grading, whose verdicts no setting may narrow.
if [ -n "${KCONFORM_SANITIZER_ARGS:-}" ]; then
  if [ "${KCONFORM_TOOL_WRAPS_EXECUTOR:-}" = 1 ]; then
    echo "run_sanitizer.sh: KCONFORM_SANITIZER_ARGS ignored under grading"
  else
    read -r -a probe_args <<<"$KCONFORM_SANITIZER_ARGS"
    echo "run_sanitizer.sh: with KCONFORM_SANITIZER_ARGS: ${probe_args[*]}"
    extra_args+=("${probe_args[@]}")
  fi
fi
args+=("${extra_args[@]}")

if [ "$mode" = expect-hazard ]; then
  if ! listing=$("$exe" --gtest_filter="$filter" --gtest_list_tests); then
    echo "$listing"
    echo "FAILED: could not list the cases of $exe: the gate cannot run"
    exit 1
  fi
  if ! echo "$listing" | grep -q '^  '; then
    echo "SKIPPED: no registry row expects $tool to catch it (filter '$filter' selects no case)"
    exit $skip
  fi
  if [ "$tool" = racecheck ]; then
    # Reporting every hazard is what makes a racy row slow under racecheck: on an H100 the conv2d row
    # took 24.6 s with --racecheck-report all (74,829 errors and 68,784 warnings recorded) and 1.5 s
    # with the race analysis alone, which reported the race too (5 errors). So the rows run with the
    # analysis first, and only if it misses one (the analysis may fold a warning-level race, such as
    # the volatile warp race, into nothing) again with every hazard reported, which then decides.
    "$runner" run --exe "$exe" --name "$name" --filter "$filter" --report-dir "$build_dir" --isolate \
      --sanitizer expect-hazard --tool "$tool" -- "$sanitizer" --tool racecheck --print-limit 25 \
      --racecheck-report analysis "${extra_args[@]}" && exit 0
    echo "racecheck's race analysis did not catch every row: again, reporting every hazard (--racecheck-report all)"
  fi
  exec "$runner" run --exe "$exe" --name "$name" --filter "$filter" --report-dir "$build_dir" --isolate \
    --sanitizer expect-hazard --tool "$tool" -- "$sanitizer" "${args[@]}"
fi
exec "$runner" run --exe "$exe" --name "$name" --filter "$filter" --report-dir "$build_dir" \
  --sanitizer clean --tool "$tool" -- "$sanitizer" "${args[@]}"
