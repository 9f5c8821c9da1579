#!/usr/bin/env bash
# slots_per_gpu.sh <slots a GPU> [GPUs]
# The slots each GPU gets when a run uses several GPUs: at most KCONFORM_HOST_GPU_PROCESSES (default
# 16) GPU processes at once over the GPUs the run sees, so floor(that / GPUs) a GPU, at least 1, and
# never more than the <slots> asked for. GPUs defaults to visible_gpus.sh's count (at least 1), which
# CUDA_VISIBLE_DEVICES narrows: runs pinned to one GPU each (the shards of run_shards_on_host.sh,
# grade_synthetic_class.sh --side-by-side) each keep their slots, and add up on the host.
#
# Why one cap for the host, not slots x GPUs: the driver starts CUDA processes one at a time for the
# whole host (docs/architecture.md, "Start-up"), and each brings its CPU work, so more processes at
# once on more GPUs start no faster and each runs slower. Measured:
#   - the main job's shared phase on 4 H100s: 40 at once (10 x 4) took 66-69 s, 16 at once 50 s;
#   - a class of 100 reductions (scripts/grade_synthetic_class.sh, 8 slots a GPU): on 4 H200s, 32 at
#     once, a sanitizer process averaged 25.7 s (19 s of it start-ups) and the class had not finished
#     its sanitizer units at 407 s; on 2 H200s, 16 at once, 10.1 s (6.8 s) and they were done at 358 s.
# Used by scripts/run_gpu_suite.sh (the shared phase) and scripts/grade.sh (a batch's processes).
set -eu
slots=${1:?usage: slots_per_gpu.sh <slots a GPU> [GPUs]}
gpus=${2:-$("$(dirname "$0")/visible_gpus.sh")}
cap=${KCONFORM_HOST_GPU_PROCESSES:-16}
for v in "$slots" "$gpus" "$cap"; do  # no leading zero: bash would read 08 as octal
  [[ "$v" =~ ^(0|[1-9][0-9]*)$ ]] || { echo "slots_per_gpu.sh: '$v' is not a whole number" >&2; exit 2; }
done
[ "$cap" -ge 1 ] || { echo "slots_per_gpu.sh: KCONFORM_HOST_GPU_PROCESSES must be at least 1" >&2; exit 2; }
[ "$gpus" -ge 1 ] || gpus=1
[ "$slots" -ge 1 ] || slots=1
per_gpu=$((cap / gpus))
[ "$per_gpu" -ge 1 ] || per_gpu=1
[ "$slots" -le "$per_gpu" ] || slots=$per_gpu
echo "$slots"
