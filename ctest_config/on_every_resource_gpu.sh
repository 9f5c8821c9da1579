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
# Each copy's output goes out as it comes, every line prefixed with its GPU ("[gpu 2] "): CTest ends a
# test past its TIMEOUT by killing its whole process tree (SIGKILL: no trap runs), so output held back
# for later would be lost with it. Two groups on one GPU (a resource spec whose GPUs have more slots
# than the build's KCONFORM_GPU_SLOTS lets CTest place them so) are refused: the copies would time
# each other. Exit: 2 for that or a group that names no GPU; else the first failing copy's status
# (GPU order); else 77 (KCONFORM_SKIP_RETURN_CODE) if every copy skipped; else 0.
# A copy that skipped beside one that passed (a model without a stored baseline beside one with it)
# leaves the test passed, and its unit report says skipped.
set -u
[ $# -ge 1 ] || { echo "usage: on_every_resource_gpu.sh <command> [args...]" >&2; exit 2; }
. "$(dirname "$0")/pin_to_resource_gpu.sh" || exit 2  # resource_spec_id
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
  id=$(resource_spec_id "$spec")
  [ -n "$id" ] || { echo "on_every_resource_gpu.sh: $var='$spec' names no GPU (id:<k>)" >&2; exit 2; }
  case " ${ids[*]} " in *" $id "*)
    echo "on_every_resource_gpu.sh: two resource groups on GPU $id: the copies would share the card (the resource" \
      "spec's GPUs have more slots than this build's KCONFORM_GPU_SLOTS?)" >&2
    exit 2 ;;
  esac
  specs+=("$spec") ids+=("$id")
done

pids=()
# A TERM or INT (by hand: CTest's timeout is a SIGKILL of the whole tree) ends the copies too: each
# copy's processes (the command and its sed) and the subshell holding them.
end_copies() {
  for pid in "${pids[@]}"; do pkill -TERM -P "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null; done
}
trap 'end_copies; exit 143' TERM
trap 'end_copies; exit 130' INT
for i in "${!ids[@]}"; do
  (
    (
      for ((j = 1; j < count; j++)); do unset "CTEST_RESOURCE_GROUP_$j" "CTEST_RESOURCE_GROUP_${j}_GPUS"; done
      export CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus CTEST_RESOURCE_GROUP_0_GPUS=${specs[$i]}
      exec "${@//@GPU@/${ids[$i]}}"
    ) 2>&1 | sed -u "s/^/[gpu ${ids[$i]}] /"
    exit "${PIPESTATUS[0]}"
  ) &
  pids+=($!)
done
status=0 skipped=0
for i in "${!ids[@]}"; do
  wait "${pids[$i]}"
  code=$?
  echo "[gpu ${ids[$i]}] exit $code (${specs[$i]})"
  if [ "$code" -eq "$skip_code" ]; then
    skipped=$((skipped + 1))
  elif [ "$code" -ne 0 ] && [ "$status" -eq 0 ]; then
    status=$code
  fi
done
[ "$status" -eq 0 ] && [ "$skipped" -eq "${#ids[@]}" ] && status=$skip_code
exit "$status"
