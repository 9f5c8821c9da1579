#!/usr/bin/env bash
# The one place kconform runs Nsight Compute (issue 9 §4): profile a program's kernels and print
# every collected value, for any family's counter assertions (check_ncu_metric.sh) and reports
# (the access benchmark's counter columns).
#
#   ncu_collect.sh <metric[,metric...]> <kernel-regex> <program> [args...]
#
# Every kernel launch whose name matches <kernel-regex> is profiled once, with all the metrics
# (`ncu --csv --print-units base --metrics ... --kernel-name regex:...`). The clocks are left alone
# (--clock-control none: the GPU's settings are not ours to change). Prints CSV on stdout:
#   launch,kernel,metric,value
# launch = ncu's ID: the order of the matching launches in the program, from 0.
# Exit 0: at least one value printed; 1: ncu or the program failed, or nothing matched (ncu's
# output on stderr); 77 (CTest skip): no ncu, no GPU, or no permission to read the counters
# (ERR_NVGPUCTRPERM), with the reason on stdout as "SKIPPED: ...".
set -uo pipefail
metrics=${1:?metrics}; kernel=${2:?kernel regex}; shift 2
# KCONFORM_NCU / KCONFORM_NVIDIA_SMI replace the tools (the CPU test of these scripts fakes both).
ncu_bin=${KCONFORM_NCU:-ncu}
if ! command -v "$ncu_bin" >/dev/null 2>&1; then
  echo "SKIPPED: Nsight Compute ($ncu_bin) is not installed here"
  exit 77
fi
if ! "${KCONFORM_NVIDIA_SMI:-nvidia-smi}" -L >/dev/null 2>&1; then
  echo "SKIPPED: no GPU (nvidia-smi sees none)"
  exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$ncu_bin" --csv --print-units base --clock-control none --metrics "$metrics" --kernel-name "regex:$kernel" "$@" >"$log" 2>&1
status=$?
if grep -q 'ERR_NVGPUCTRPERM\|does not have permission' "$log"; then
  echo "SKIPPED: no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)"
  exit 77
fi
# CSV rows: "ID",...,"Kernel Name"(5th),...,"Metric Name","Metric Unit","Metric Value" (last).
# Values may carry thousands separators ("1,024.00"); they are printed without them.
echo "launch,kernel,metric,value"
awk -F'","' '
  /^"/ && NF >= 5 {
    id = $1; gsub(/"/, "", id); if (id !~ /^[0-9]+$/) next
    value = $NF; gsub(/[",]/, "", value)
    kernel = $5; gsub(/,/, ";", kernel)
    printf "%s,%s,%s,%s\n", id, kernel, $(NF - 2), value; rows++
  }
  END { exit rows > 0 ? 0 : 1 }' "$log"
found=$?
if [ $status -ne 0 ] || [ $found -ne 0 ]; then
  { [ $found -ne 0 ] && echo "no kernel launch matched (or ncu profiled none)"
    echo "--- ncu output (exit $status) ---"; tail -n 40 "$log"; } >&2
  exit 1
fi
exit 0
