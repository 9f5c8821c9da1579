#!/usr/bin/env bash
# ctest_config/visible_gpus.sh with a fake nvidia-smi listing 4 GPUs: the count follows
# CUDA_VISIBLE_DEVICES (a shard pinned to one GPU lists one in its resource spec), and
# make_resource_spec.sh writes that many entries; pin_to_resource_gpu.sh pins a test to the GPU
# CTest handed it.
set -u
config=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/fake_host_of_4_gpus.sh" && fake_host_of_4_gpus "$work"
failures=0
check() {  # check <expected> <what> [CUDA_VISIBLE_DEVICES value | unset]
  local want=$1 what=$2 got
  if [ "$3" = unset ]; then got=$(env -u CUDA_VISIBLE_DEVICES "$config/visible_gpus.sh")
  else got=$(CUDA_VISIBLE_DEVICES=$3 "$config/visible_gpus.sh"); fi
  if [ "$got" = "$want" ]; then echo "ok: $what: $got"; else echo "FAIL: $what: $got, expected $want"; failures=$((failures + 1)); fi
}
check 4 "no CUDA_VISIBLE_DEVICES" unset
check 1 "one GPU" 2
check 2 "two GPUs" "0,3"
check 0 "none (empty)" ""
check 4 "more listed than the host has" "0,1,2,3,4,5"
CUDA_VISIBLE_DEVICES=1 "$config/make_resource_spec.sh" "$work/spec.json" 3
entries=$(grep -c '"id"' "$work/spec.json")
if [ "$entries" = 1 ]; then echo "ok: the pinned resource spec lists 1 GPU"
else echo "FAIL: the pinned resource spec lists $entries GPUs"; cat "$work/spec.json"; failures=$((failures + 1)); fi

# pin_to_resource_gpu.sh: a test CTest handed GPU id k pins what it starts to that GPU (the k-th of those
# it sees), and visible_gpus.sh then counts one.
pinned() {  # pinned <CTEST_RESOURCE_GROUP_0_GPUS | unset> <CUDA_VISIBLE_DEVICES | unset>: what the test's programs see
  env -u CUDA_VISIBLE_DEVICES -u CTEST_RESOURCE_GROUP_0_GPUS KCONFORM_PIN_TO_RESOURCE_GPU=${PIN:-1} bash -c '
    [ "$1" = unset ] || export CTEST_RESOURCE_GROUP_0_GPUS=$1
    [ "$2" = unset ] || export CUDA_VISIBLE_DEVICES=$2
    . "$3/pin_to_resource_gpu.sh" && pin_to_resource_gpu
    echo "${CUDA_VISIBLE_DEVICES-unset} $("$3/visible_gpus.sh")"' pinned "$1" "$2" "$config"
}
check_pin() {  # check_pin <expected "devices count"> <what> <group> <visible>
  local got
  got=$(pinned "$3" "$4")
  if [ "$got" = "$1" ]; then echo "ok: $2: $got"; else echo "FAIL: $2: $got, expected $1"; failures=$((failures + 1)); fi
}
check_pin "2 1" "CTest handed GPU 2" "id:2,slots:10" unset
check_pin "0 1" "CTest handed GPU 0" "id:0,slots:10" unset
check_pin "6 1" "GPU 1 of a process that sees 4,6" "id:1,slots:10" "4,6"
check_pin "unset 4" "no resource spec: nothing pinned" unset unset
PIN=0 check_pin "unset 4" "side by side not asked for (KCONFORM_PIN_TO_RESOURCE_GPU=0): nothing pinned" "id:2,slots:10" unset
check_pin "0,3 2" "no resource spec, a subset seen: kept" unset "0,3"
exit $failures
