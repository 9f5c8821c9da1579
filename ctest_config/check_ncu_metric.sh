#!/usr/bin/env bash
# One hardware-counter assertion, for any family (label `profile`): runs a program's kernels under
# Nsight Compute (ncu_collect.sh, the one place ncu is run) and checks that a metric lies in a range
# that follows from the kernel's design.
#
#   check_ncu_metric.sh <metric> <min> <max> <kernel-regex> <program> [args...]
#
# Every kernel launch whose name matches <kernel-regex> is profiled; each launch's value must lie in
# [min, max]. Exit 0: every value in range (and at least one launch profiled); 1: a value out of
# range or not a number, no launch matched, or ncu failed; 77 (CTest skip): no ncu, no GPU, or no
# permission to read the counters, with the reason on stdout.
set -uo pipefail
metric=${1:?metric}; min=${2:?min}; max=${3:?max}; kernel=${4:?kernel regex}; shift 4
values=$(mktemp)
trap 'rm -f "$values"' EXIT
"$(dirname "$0")/ncu_collect.sh" "$metric" "$kernel" "$@" >"$values"
status=$?
if [ $status -eq 77 ]; then cat "$values"; exit 77; fi
if [ $status -ne 0 ]; then cat "$values"; exit 1; fi
awk -F, -v metric="$metric" -v lo="$min" -v hi="$max" '
  NR > 1 && $3 == metric {
    launches++
    if ($4 !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ || $4 + 0 < lo + 0 || $4 + 0 > hi + 0) { bad++; printf "OUT OF RANGE: %s = %s in %s (expected %s..%s)\n", metric, $4, $2, lo, hi }
    else printf "ok: %s = %s in %s\n", metric, $4, $2
  }
  END {
    if (launches == 0) { print "ncu reported no value of " metric; exit 1 }
    printf "%d launch(es) profiled, %d out of range\n", launches, bad
    exit (bad > 0) ? 1 : 0
  }' "$values"
