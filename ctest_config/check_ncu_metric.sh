#!/usr/bin/env bash
# One hardware-counter assertion, for any family (label `profile`): runs a program's kernels under
# Nsight Compute and checks that a metric lies in a range that follows from the kernel's design.
#
#   check_ncu_metric.sh <metric> <min> <max> <kernel-regex> <program> [args...]
#
# Every kernel launch whose name matches <kernel-regex> is profiled (`ncu --csv --metrics <metric>
# --kernel-name regex:<kernel-regex>`); each launch's value must lie in [min, max]. The clocks are
# left alone (--clock-control none: the GPU's settings are not ours to change).
# Exit 0: every value in range (and at least one launch profiled); 1: a value out of range, no
# launch matched, or ncu failed; 77 (CTest skip): no ncu, no GPU, or no permission to read the
# counters (ERR_NVGPUCTRPERM), with the reason on stdout.
set -uo pipefail
metric=${1:?metric}; min=${2:?min}; max=${3:?max}; kernel=${4:?kernel regex}; shift 4
ncu_bin=${KCONFORM_NCU:-ncu}
if ! command -v "$ncu_bin" >/dev/null 2>&1; then
  echo "SKIPPED: Nsight Compute ($ncu_bin) is not installed here"
  exit 77
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no GPU (nvidia-smi sees none)"
  exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$ncu_bin" --csv --print-units base --clock-control none --metrics "$metric" --kernel-name "regex:$kernel" "$@" >"$log" 2>&1
status=$?
if grep -q 'ERR_NVGPUCTRPERM\|does not have permission' "$log"; then
  echo "SKIPPED: no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)"
  exit 77
fi
# CSV rows: "ID",...,"Kernel Name"(5th),...,"Metric Name","Metric Unit","Metric Value" (last).
# Values may carry thousands separators ("1,024.00").
awk -F'","' -v metric="$metric" -v lo="$min" -v hi="$max" '
  /^"/ && NF >= 5 {
    name = $(NF - 2); if (name != metric) next
    value = $NF; gsub(/[",]/, "", value)
    launches++
    if (value !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ || value + 0 < lo + 0 || value + 0 > hi + 0) { bad++; printf "OUT OF RANGE: %s = %s in %s (expected %s..%s)\n", metric, value, $5, lo, hi }
    else printf "ok: %s = %s in %s\n", metric, value, $5
  }
  END {
    if (launches == 0) { print "no kernel launch matched (or ncu profiled none): see the ncu output above"; exit 1 }
    printf "%d launch(es) profiled, %d out of range\n", launches, bad
    exit (bad > 0) ? 1 : 0
  }' "$log"
verdict=$?
if [ $verdict -ne 0 ] || [ $status -ne 0 ]; then
  echo "--- ncu output (exit $status) ---"; tail -n 40 "$log"
  [ $verdict -ne 0 ] && exit 1
  exit 1
fi
exit 0
