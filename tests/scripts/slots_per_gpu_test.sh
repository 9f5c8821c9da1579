#!/usr/bin/env bash
# ctest_config/slots_per_gpu.sh: the slots a GPU gets when a run uses several GPUs, at most
# KCONFORM_HOST_GPU_PROCESSES (16) processes at once over the GPUs it sees, floor(16 / GPUs) a GPU, never more
# than asked and never below 1; the GPU count defaults to what CUDA sees (a fake nvidia-smi listing 4
# GPUs, narrowed by CUDA_VISIBLE_DEVICES); a bad number is refused. And the two runs that spread over
# the GPUs (the main job's shared phase, a grading batch) take their slots from it.
set -u
root=$1
config=$root/ctest_config
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/fake_host_of_4_gpus.sh" && fake_host_of_4_gpus "$work"
unset KCONFORM_HOST_GPU_PROCESSES CUDA_VISIBLE_DEVICES
failures=0
check() {  # check <expected> <what> <args...>
  local want=$1 what=$2 got
  shift 2
  got=$("$config/slots_per_gpu.sh" "$@" 2>/dev/null)
  if [ "$got" = "$want" ]; then echo "ok: $what: $got"; else echo "FAIL: $what: '$got', expected $want"; failures=$((failures + 1)); fi
}
check 10 "the main job on 1 GPU keeps its 10" 10 1
check 8 "the main job on 2 GPUs: 16 / 2" 10 2
check 5 "on 3 GPUs: floor(16 / 3)" 10 3
check 4 "on 4 GPUs: 16 / 4" 10 4
check 8 "grading on 1 GPU keeps its 8" 8 1
check 8 "grading on 2 GPUs keeps its 8" 8 2
check 4 "grading on 4 GPUs: 4 a GPU" 8 4
check 16 "one GPU asked for 20: the host's 16" 20 1
check 1 "more GPUs than the cap: at least 1 a GPU" 10 32
check 4 "no GPU count: what CUDA sees (4)" 10
CUDA_VISIBLE_DEVICES=2 check 10 "no GPU count, pinned to one GPU" 10
KCONFORM_HOST_GPU_PROCESSES=24 check 6 "KCONFORM_HOST_GPU_PROCESSES=24 on 4 GPUs" 8 4
KCONFORM_HOST_GPU_PROCESSES=2 check 1 "a cap below the GPUs: 1 a GPU" 8 4
for bad in "x 2" "8 two" "-1 2" "08 2"; do  # 08: bash would read it as octal
  # shellcheck disable=SC2086
  if "$config/slots_per_gpu.sh" $bad >/dev/null 2>&1; then echo "FAIL: '$bad' accepted"; failures=$((failures + 1)); else echo "ok: '$bad' refused"; fi
done
for cap in 0 many; do
  if KCONFORM_HOST_GPU_PROCESSES=$cap "$config/slots_per_gpu.sh" 8 4 >/dev/null 2>&1; then
    echo "FAIL: KCONFORM_HOST_GPU_PROCESSES=$cap accepted"; failures=$((failures + 1))
  else echo "ok: KCONFORM_HOST_GPU_PROCESSES=$cap refused"; fi
done
# The callers: each computes its per-GPU slots with it (a batch reads the cap before it clears the
# KCONFORM_ variables it inherits). Read, not run: both need a GPU to get that far, so these are
# literal lines; a rewording of the call fails here and wants this check reworded with it.
grep -q 'shared_slots=$(ctest_config/slots_per_gpu.sh "$slots" "$gpus")' "$root/scripts/run_gpu_suite.sh" ||
  { echo "FAIL: run_gpu_suite.sh does not take the shared phase's slots from slots_per_gpu.sh"; failures=$((failures + 1)); }
grep -q 'slots=$(KCONFORM_HOST_GPU_PROCESSES=$host_processes "$root/ctest_config/slots_per_gpu.sh" "$slots")' "$root/scripts/grade.sh" &&
  grep -q '^host_processes=${KCONFORM_HOST_GPU_PROCESSES:-16}$' "$root/scripts/grade.sh" ||
  { echo "FAIL: grade.sh does not take a batch's slots from slots_per_gpu.sh with the cap it read"; failures=$((failures + 1)); }
[ $failures -eq 0 ] && echo "PASSED: slots_per_gpu.sh" || { echo "FAILED: $failures check(s)"; exit 1; }
