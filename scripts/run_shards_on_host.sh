#!/usr/bin/env bash
# run_shards_on_host.sh <out dir> [N] [--single | --compare <one-machine report>]
#
# The conformance run split as N machines would split it (issue 34), on one host with at least N
# GPUs: shard i (KCONFORM_SHARD=i/N, CTest's -I i,,N) runs scripts/run_gpu_suite.sh in a copy of
# this tree of its own (so its own build/gpu: the runs do not share build or test folders), pinned to
# GPU i-1 (CUDA_VISIBLE_DEVICES), writing <out>/shard-i. The N shards run at once, as N machines
# would. Then scripts/merge_reports.sh writes <out>/merged, and scripts/compare_runs.sh compares the
# shards with a one-machine run of the same tree: --single runs it here afterwards, on GPU 0 alone
# (<out>/single); --compare names one made before. N defaults to the number of GPUs.
#
# Writes <out>/shards.md: each shard's wall time and its summary line, the merge's verdict and the
# comparison table. Exit: 0 when every shard passed, the merge passed and the comparison (if any)
# found nothing lost, run twice, extra or changed; 1 otherwise; 2 on bad usage.
set -u
[ $# -ge 1 ] || { echo "usage: run_shards_on_host.sh <out dir> [N] [--single | --compare <report>]"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
shift
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
n=$gpus single=0 compare_with=
while [ $# -gt 0 ]; do
  case "$1" in
    --single) single=1 ;;
    --compare) compare_with=${2:?--compare needs a report folder}; shift ;;
    [0-9]*) n=$1 ;;
    *) echo "run_shards_on_host.sh: unknown argument $1"; exit 2 ;;
  esac
  shift
done
[ "${gpus:-0}" -ge 1 ] || { echo "run_shards_on_host.sh: no GPU (nvidia-smi -L found none)"; exit 2; }
if [ "$n" -lt 1 ] || [ "$n" -gt "$gpus" ]; then echo "run_shards_on_host.sh: $n shards need $n GPUs; this host has $gpus"; exit 2; fi
mkdir -p "$out" && out=$(cd "$out" && pwd)
# The commit each report names: a shard's tree is a copy, not a git checkout, so it is told.
export KCONFORM_COMMIT=${KCONFORM_COMMIT:-$("$root/scripts/tree_commit.sh" "$root")}

# A tree per shard: the files git tracks and the untracked ones it does not ignore (no build output);
# outside a git checkout, everything but build/ and reports/.
copy_tree() {
  rm -rf "$1" && mkdir -p "$1"
  if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -C "$1" -xf -
  else
    tar -C "$root" --exclude=./build --exclude=./reports --exclude="./$(basename "$out")" -cf - . | tar -C "$1" -xf -
  fi
}

status=0
pids=()
for i in $(seq 1 "$n"); do
  copy_tree "$out/tree-$i"
  (
    cd "$out/tree-$i" || exit 2
    started=$(date +%s)
    # nvidia-smi's order (PCI bus) for CUDA's ordinals too, so GPU i-1 is the one nvidia-smi names so.
    CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$((i - 1)) KCONFORM_SHARD=$i/$n scripts/run_gpu_suite.sh "$out/shard-$i" >"$out/shard-$i.log" 2>&1
    code=$?
    echo "$(($(date +%s) - started)) $code" >"$out/shard-$i.time"
    exit $code
  ) &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done

{
  echo "# $n shards on one host ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $gpus GPUs)"
  echo
  echo "| shard | GPU | wall s | exit | summary |"
  echo "|---|---|---|---|---|"
  for i in $(seq 1 "$n"); do
    read -r wall code <"$out/shard-$i.time" 2>/dev/null || { wall="?"; code="?"; }
    line=$(grep -m1 -E '^(PASSED|FAILED|\*\*)' "$out/shard-$i/summary.md" 2>/dev/null | tr '|' '/')
    echo "| $i of $n | $((i - 1)) | $wall | $code | ${line:-no summary.md} |"
  done
  echo
  shards=()
  for i in $(seq 1 "$n"); do shards+=("$out/shard-$i"); done
  # Summarised in shard 1's tree, where its build is (perf.html's tool, build/gpu/...): the one-machine
  # run, which builds this tree's, comes after.
  if (cd "$out/tree-1" && "$root/scripts/merge_reports.sh" "$out/merged" "${shards[@]}") >"$out/merge.log" 2>&1; then
    echo "Merged report: $out/merged (passed)"
  else
    echo "Merged report: $out/merged (FAILED: a test failed, or a shard left no report; $out/merge.log says which)"
    status=1
  fi
  echo
  if [ $single -eq 1 ]; then
    started=$(date +%s)
    CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0 "$root/scripts/run_gpu_suite.sh" "$out/single" >"$out/single.log" 2>&1 || status=1
    echo "One-machine run on GPU 0: $(($(date +%s) - started)) s ($out/single)"
    compare_with=$out/single
  fi
  if [ -n "$compare_with" ]; then
    "$root/scripts/compare_runs.sh" "$compare_with" "${shards[@]}" 2>&1 || status=1
  fi
  exit $status
} | tee "$out/shards.md"
exit "${PIPESTATUS[0]}"
