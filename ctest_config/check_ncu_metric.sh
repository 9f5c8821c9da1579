#!/usr/bin/env bash
# Hardware-counter assertions, for any family (label `profile`): runs a program's kernels under Nsight
# Compute once (ncu_collect.sh, the one place ncu is run) and checks that each launch's metric lies in
# a range that follows from the kernel's design.
#
#   check_ncu_metric.sh <checks file> <program>
#
# The checks file has one check per line (blank lines and "#" comments aside):
#   <name> <metric> <min> <max> <kernel-regex> <program arguments of one launch...>
# The program is run once with every check's arguments in order and must launch exactly one kernel
# per check (access_profile_target: one launch per spec), so launch k (ncu's ID, from 0) is check k;
# its kernel must match the check's regex and its metric lie in [min, max]. One ncu process for all
# the checks: each ncu start, CUDA context and replay set-up cost ~2 s, and seven checks run alone on
# the GPU one after another took 14 s of an H100 run (issue 21).
# Exit 0: every check held; 1: a value out of range or not a number, a launch missing, extra or of
# another kernel, or ncu failed; 77 (CTest skip): no ncu, no GPU, or no permission to read the
# counters, with the reason on stdout.
set -uo pipefail
checks=${1:?checks file}; program=${2:?program}
[ -r "$checks" ] || { echo "FAILED: cannot read the checks file $checks"; exit 1; }
table=$(mktemp) values=$(mktemp)
trap 'rm -f "$table" "$values"' EXIT
metrics= kernels= args=() count=0
while read -r name metric min max kernel rest; do
  case "$name" in "" | \#*) continue ;; esac
  if [ -z "$kernel" ] || [ -z "$rest" ]; then echo "FAILED: check '$name' in $checks lacks a field"; exit 1; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$count" "$name" "$metric" "$min" "$max" "$kernel" >>"$table"
  case ",$metrics," in *",$metric,"*) ;; *) metrics=${metrics:+$metrics,}$metric ;; esac
  kernels=${kernels:+$kernels|}$kernel
  read -ra words <<<"$rest"
  args+=("${words[@]}")
  count=$((count + 1))
done <"$checks"
[ "$count" -gt 0 ] || { echo "FAILED: no check in $checks"; exit 1; }
"$(dirname "$0")/ncu_collect.sh" "$metrics" "($kernels)" "$program" "${args[@]}" >"$values"
status=$?
if [ $status -eq 77 ]; then cat "$values"; exit 77; fi
if [ $status -ne 0 ]; then cat "$values"; exit 1; fi
awk -F'\t' -v checks="$count" '
  FNR == NR { name[$1] = $2; metric[$1] = $3; lo[$1] = $4; hi[$1] = $5; kernel[$1] = $6; next }
  FNR == 1 { next }  # the CSV header
  { split($0, f, ","); launch = f[1]; seen[launch] = 1; if (launch + 0 >= checks) extra++
    if (f[3] == metric[launch]) { value[launch] = f[4]; found[launch] = 1 }
    kernel_of[launch] = f[2] }
  END {
    for (i = 0; i < checks; i++) {
      if (!(i in seen)) { bad++; printf "MISSING: %s: ncu profiled no launch %d (one launch per check)\n", name[i], i; continue }
      if (kernel_of[i] !~ kernel[i]) { bad++; printf "WRONG KERNEL: %s: launch %d is %s, not %s\n", name[i], i, kernel_of[i], kernel[i]; continue }
      if (!(i in found)) { bad++; printf "NO VALUE: %s: ncu reported no value of %s for launch %d\n", name[i], metric[i], i; continue }
      v = value[i]
      if (v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ || v + 0 < lo[i] + 0 || v + 0 > hi[i] + 0) {
        bad++; printf "OUT OF RANGE: %s: %s = %s in %s (expected %s..%s)\n", name[i], metric[i], v, kernel_of[i], lo[i], hi[i]
      } else printf "ok: %s: %s = %s in %s\n", name[i], metric[i], v, kernel_of[i]
    }
    if (extra) { bad++; printf "EXTRA: ncu profiled launches past the %d checks (a check whose arguments launch more than one kernel)\n", checks }
    printf "%d check(s), %d failed\n", checks, bad
    exit (bad > 0) ? 1 : 0
  }' "$table" "$values"
