# Sourced (bash) by a CTest test that starts GPU programs of its own, e.g. a whole grade.sh batch
# (tests/submissions/check_examples.sh and the neighbours and class tests): pins them to the GPU CTest
# handed the test, so that on a host of several GPUs such tests run side by side, one per GPU, each
# grading on its own card (issue 34), instead of one after another with every batch spread over all.
#
#   . ctest_config/pin_to_resource_gpu.sh; pin_to_resource_gpu
#
# CTest names the GPU in CTEST_RESOURCE_GROUP_0_GPUS ("id:<k>,slots:<n>"): a CUDA ordinal among the
# GPUs this process sees (the resource spec lists 0..count-1: make_resource_spec.sh). Exporting
# CUDA_VISIBLE_DEVICES as that device makes every program the test starts see it alone; where the
# process already sees a subset (CUDA_VISIBLE_DEVICES set), the k-th entry of that list. nvidia-smi
# does not read the variable: count GPUs with ctest_config/visible_gpus.sh. Without a resource spec
# (CTest ran without one, or the test runs by hand) nothing changes; nor unless the build runs these
# tests side by side (KCONFORM_PIN_TO_RESOURCE_GPU=1, which tests/grading/CMakeLists.txt sets with
# KCONFORM_ALONE_PER_GPU): one at a time, a batch spreads over every GPU, as measured at b498e02.

# Prints the CUDA_VISIBLE_DEVICES entry that names the k-th GPU this process sees (k itself where the
# variable is unset), or nothing past the list's end. (The C++ side: fixtures/gpu_environment.hpp.)
visible_gpu_entry() {
  local listed
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    IFS=',' read -r -a listed <<<"$CUDA_VISIBLE_DEVICES"
    [ "$1" -lt "${#listed[@]}" ] && echo "${listed[$1]}"
  else
    echo "$1"
  fi
  return 0
}

# Prints the GPU id a CTest resource group's text names ("id:<k>,slots:<n>" -> k), or nothing.
resource_spec_id() {
  [[ "${1:-}" =~ (^|,)id:([0-9]+)(,|$) ]] && echo "${BASH_REMATCH[2]}"
  return 0
}

# Prints the CUDA_VISIBLE_DEVICES entry of the GPU CTest handed this test, or nothing.
resource_gpu_device() {
  local id
  id=$(resource_spec_id "${CTEST_RESOURCE_GROUP_0_GPUS:-}")
  [ -z "$id" ] || visible_gpu_entry "$id"
}

pin_to_resource_gpu() {
  local device
  [ "${KCONFORM_PIN_TO_RESOURCE_GPU:-0}" = 1 ] || return 0
  device=$(resource_gpu_device)
  [ -z "$device" ] || export CUDA_VISIBLE_DEVICES="$device"
}
