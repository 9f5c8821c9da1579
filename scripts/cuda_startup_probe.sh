#!/usr/bin/env bash
# How long a process's CUDA start-up takes on this host, alone and many at once, seeing every GPU or
# only the one it uses: the measurement behind kc::gpu::current()'s pin (fixtures/gpu_environment.hpp)
# and behind docs/architecture.md's "Start-up". 20-40 s of GPU time.
#
#   scripts/cuda_startup_probe.sh [--processes N] [--probe <program>] [--out <file.md>]
#
# Rows: one process alone (3 runs each), seeing every GPU and seeing one; N processes started
# together (default 16), spread round robin over the GPUs, seeing every GPU and seeing only their own.
# Per row: the mean and the slowest cuInit, context and whole start-up, in seconds. --probe: the
# program (default build/gpu/tools/startup_probe/kconform_cuda_startup_probe); any program printing
# its line ("cuinit <s> context <s> launch <s> total <s> visible <n>") will do.
# Exit: 0 measured, 1 a probe failed (its errors are in the report), 77 no GPU (the table says so), 2 bad usage.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
processes=16 probe=$root/build/gpu/tools/startup_probe/kconform_cuda_startup_probe out=
while [ $# -gt 0 ]; do
  case "$1" in
    --processes | --probe | --out) [ $# -ge 2 ] || { echo "cuda_startup_probe.sh: $1 needs a value" >&2; exit 2; } ;;
  esac
  case "$1" in
    --processes) processes=$2; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "cuda_startup_probe.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$processes" in '' | *[!0-9]* | 0) echo "cuda_startup_probe.sh: --processes must be a positive integer" >&2; exit 2 ;; esac
[ -x "$probe" ] || { echo "cuda_startup_probe.sh: no probe at $probe (cmake --build --preset gpu builds it)" >&2; exit 2; }
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
gpus=$("$root/ctest_config/visible_gpus.sh"); [ "${gpus:-0}" -ge 1 ] || gpus=0
. "$root/ctest_config/pin_to_resource_gpu.sh" || exit 2  # visible_gpu_entry: the k-th GPU this process sees

# row <name> <file of probe lines>: mean and max of each phase.
row() {
  awk -v name="$1" '$1 == "cuinit" { n++; for (i = 1; i < NF; i += 2) if ($i != "visible") {
                       sum[$i] += $(i + 1); if ($(i + 1) > max[$i]) max[$i] = $(i + 1) } ; seen = $NF }
       END { if (n == 0) { printf "| %s | 0 | - | - | - | - |\n", name; exit }
             printf "| %s | %d | %d | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f |\n", name, n, seen,
               sum["cuinit"] / n, max["cuinit"], sum["context"] / n, max["context"], sum["total"] / n, max["total"] }' "$2"
}

{
  echo "| start-up | processes | GPUs seen | cuInit s (mean / max) | context s (mean / max) | total s (mean / max) |"
  echo "|---|---|---|---|---|---|"
  if [ "$gpus" -eq 0 ]; then
    echo "| no GPU on this machine: nothing measured | 0 | 0 | - | - | - |"
  else
    for i in 1 2 3; do "$probe" 0; done >"$scratch/alone-all" 2>>"$scratch/errors"
    row "alone, seeing every GPU" "$scratch/alone-all"
    for i in 1 2 3; do CUDA_VISIBLE_DEVICES=$(visible_gpu_entry 0) "$probe" 0; done >"$scratch/alone-one" 2>>"$scratch/errors"
    row "alone, seeing its GPU only" "$scratch/alone-one"
    for i in $(seq 0 $((processes - 1))); do "$probe" $((i % gpus)) & done >"$scratch/many-all" 2>>"$scratch/errors"
    wait
    row "$processes at once over $gpus GPU(s), seeing every GPU" "$scratch/many-all"
    for i in $(seq 0 $((processes - 1))); do CUDA_VISIBLE_DEVICES=$(visible_gpu_entry $((i % gpus))) "$probe" 0 & done \
      >"$scratch/many-one" 2>>"$scratch/errors"
    wait
    row "$processes at once over $gpus GPU(s), each seeing its GPU only" "$scratch/many-one"
  fi
} >"$scratch/table.md"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
{ echo "CUDA start-up on ${name:-no GPU} (${gpus} visible), $(date -u +%Y-%m-%d)"; echo; cat "$scratch/table.md"; } >"$scratch/report.md"
[ -s "$scratch/errors" ] && { echo; echo "probe errors:"; sed 's/^/    /' "$scratch/errors"; } >>"$scratch/report.md"
cat "$scratch/report.md"
[ -z "$out" ] || cp "$scratch/report.md" "$out"
[ "$gpus" -gt 0 ] || exit 77
[ ! -s "$scratch/errors" ] || exit 1
