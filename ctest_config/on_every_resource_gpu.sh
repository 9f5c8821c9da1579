#!/usr/bin/env bash
# Runs one command once on each GPU CTest handed the test, all at once, each copy seeing only its own
# GPU (issue 34: "the perf points are judged on every GPU against that model's stored baseline").
#
#   on_every_resource_gpu.sh <command> [args...]        (an argument's "@GPU@" becomes the copy's GPU)
#
# A perf unit on a host of N GPUs is registered with RESOURCE_GROUPS "N,gpus:<slots>"
# (ctest_config/KconformTesting.cmake, EVERY_GPU): N groups, each every slot of one GPU, so CTest gives
# it every GPU, each to itself, and nothing else runs beside it. CTest names group i's GPU in
# CTEST_RESOURCE_GROUP_<i>_GPUS ("id:<k>,slots:<n>"). Copy i runs with that GPU as its only group
# (CTEST_RESOURCE_GROUP_COUNT=1, CTEST_RESOURCE_GROUP_0_GPUS: the programs pick their device from it,
# fixtures/gpu_environment.cpp) and "@GPU@" replaced by k, so each copy's unit has a name of its own
# (reduction.perf.AgainstBaseline.gpu2) and its perf rows the card's UUID (fixtures/perf_check.cpp).
# Without a resource spec (CTest run without one, or by hand) the command runs once, on GPU 0.
#
# Each copy's output is kept apart and printed in GPU order after all have ended. Exit: the first
# failing copy's status (GPU order); else 77 (KCONFORM_SKIP_RETURN_CODE) if every copy skipped; else 0.
# A copy that skipped beside one that passed (a model without a stored baseline beside one with it)
# leaves the test passed, and its unit report says skipped.
set -u
[ $# -ge 1 ] || { echo "usage: on_every_resource_gpu.sh <command> [args...]" >&2; exit 2; }
skip_code=77

count=${CTEST_RESOURCE_GROUP_COUNT:-0}
[[ "$count" =~ ^[0-9]+$ ]] || { echo "on_every_resource_gpu.sh: CTEST_RESOURCE_GROUP_COUNT='$count' is not a count" >&2; exit 2; }
if [ "$count" -eq 0 ]; then
  exec "${@//@GPU@/0}"
fi

specs=() ids=()
for ((i = 0; i < count; i++)); do
  var="CTEST_RESOURCE_GROUP_${i}_GPUS"
  spec=${!var:-}
  [[ "$spec" =~ (^|,)id:([0-9]+)(,|$) ]] ||
    { echo "on_every_resource_gpu.sh: $var='$spec' names no GPU (id:<k>)" >&2; exit 2; }
  specs+=("$spec") ids+=("${BASH_REMATCH[2]}")
done

logs=$(mktemp -d "${TMPDIR:-/tmp}/kconform-every-gpu.XXXXXX") || exit 2
pids=()
# CTest ends a test that runs past its TIMEOUT by signalling this process: the copies go with it.
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$logs"; exit 143' TERM INT
for i in "${!ids[@]}"; do
  (
    for ((j = 1; j < count; j++)); do unset "CTEST_RESOURCE_GROUP_$j" "CTEST_RESOURCE_GROUP_${j}_GPUS"; done
    export CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus CTEST_RESOURCE_GROUP_0_GPUS=${specs[$i]}
    exec "${@//@GPU@/${ids[$i]}}"
  ) >"$logs/$i.log" 2>&1 &
  pids+=($!)
done
status=0 skipped=0
for i in "${!ids[@]}"; do
  wait "${pids[$i]}"
  code=$?
  echo "== GPU ${ids[$i]} (${specs[$i]}): exit $code =="
  cat "$logs/$i.log"
  if [ "$code" -eq "$skip_code" ]; then
    skipped=$((skipped + 1))
  elif [ "$code" -ne 0 ] && [ "$status" -eq 0 ]; then
    status=$code
  fi
done
rm -rf "$logs"
[ "$status" -eq 0 ] && [ "$skipped" -eq "${#ids[@]}" ] && status=$skip_code
exit "$status"
