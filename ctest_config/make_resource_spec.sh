#!/usr/bin/env bash
# make_resource_spec.sh <output.json> [slots per GPU]
# Writes a CTest resource spec with one "gpus" entry per GPU this process's CUDA sees
# (visible_gpus.sh: nvidia-smi's list, narrowed by CUDA_VISIBLE_DEVICES), each with
# <slots> slots (default 10: how many single-GPU test processes may share one GPU at a time).
# With no GPU it writes one GPU entry anyway, so that `ctest --resource-spec-file` still runs
# the CPU tests and the GPU tests report themselves skipped.
set -eu
out=$1
slots=${2:-10}
count=$("$(dirname "$0")/visible_gpus.sh")
[ "$count" -ge 1 ] || count=1
{
  echo '{ "version": { "major": 1, "minor": 0 }, "local": [ { "gpus": ['
  for ((i = 0; i < count; i++)); do
    sep=','
    [ $i -eq $((count - 1)) ] && sep=''
    echo "  { \"id\": \"$i\", \"slots\": $slots }$sep"
  done
  echo '] } ] }'
} >"$out"
