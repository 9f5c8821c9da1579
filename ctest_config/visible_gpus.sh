#!/usr/bin/env bash
# visible_gpus.sh: how many GPUs this process's CUDA programs see, which is what a CTest resource
# spec may list (its ids are CUDA ordinals, 0..count-1). nvidia-smi lists every GPU of the host
# whatever CUDA_VISIBLE_DEVICES says, so a run pinned to some of them (a shard per GPU:
# scripts/run_shards_on_host.sh) would otherwise list GPUs its programs cannot open. Prints 0 when
# there is none.
set -u
count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
count=${count:-0}
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ] && [ "$count" -gt 0 ]; then
  # A comma-separated list of indices or UUIDs; CUDA stops at the first invalid entry, which this
  # does not check: the entries are counted, at most the host's count.
  listed=$(printf '%s' "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c '[^[:space:]]' || true)
  [ "${listed:-0}" -lt "$count" ] && count=${listed:-0}
fi
echo "$count"
