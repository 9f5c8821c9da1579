#!/usr/bin/env bash
# ncu_scripts_test.sh <ctest_config dir> <scratch dir>
#
# The ncu helpers (ctest_config/ncu_collect.sh, check_ncu_metric.sh) on every machine, with a fake
# `ncu` that prints what Nsight Compute 2025 printed on the H200 for two launches (its --csv layout:
# "ID",...,"Kernel Name"(5th),...,"Metric Name","Metric Unit","Metric Value"), so a change in the
# parsing or the verdicts fails here, not only on the GPU box:
#   collect   one line per (launch, metric), the kernel's commas made safe, thousands separators dropped
#   check     one ncu run for a checks file (its metrics, kernels and launches in order); every
#             launch in range -> 0; one out of range, a metric ncu did not report, a launch of
#             another kernel, more or fewer launches than checks, a value that is not a number,
#             a malformed or empty checks file -> 1
#   skip      no ncu, no GPU, or ERR_NVGPUCTRPERM -> 77 with the reason
#   failure   ncu exits non-zero, or matches no launch -> 1
set -u
scripts=$1 dir=$2
rm -rf "$dir"; mkdir -p "$dir"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# fake_ncu <name> <exit status> <body file>: a program that prints the body and exits.
fake_ncu() {
  printf '#!/usr/bin/env bash\necho "$*" >"%s"\ncat "%s"\nexit %s\n' "$dir/ncu_args" "$3" "$2" >"$dir/$1"
  chmod +x "$dir/$1"
}
metric=l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio
row() {  # row <id> <grid> <metric> <unit> <value>
  printf '"%s","3071","access_profile_target","127.0.0.1","(anonymous namespace)::full_coalesced_access(const float *, const float *, float *, unsigned long, int)","1","7","(1024, 1, 1)","(%s, 1, 1)","0","9.0","Command line profiler metrics","%s","%s","%s"\n' "$@"
}
{
  echo '==PROF== Connected to process 3071 (access_profile_target)'
  echo 'FullCoalesced: n = 4096, block 1024, 1 repeats, index seed 3'
  echo '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
  row 0 4 "$metric" sector 4
  row 0 4 smsp__cycles_active.avg.pct_of_peak_sustained_elapsed % 0.93
  row 1 32 "$metric" sector 4.02
  row 1 32 smsp__cycles_active.avg.pct_of_peak_sustained_elapsed % "1,024.50"
} >"$dir/two_launches.csv"
fake_ncu ncu_ok 0 "$dir/two_launches.csv"
echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters' >"$dir/perm.txt"
fake_ncu ncu_perm 1 "$dir/perm.txt"
fake_ncu ncu_fails 1 "$dir/two_launches.csv"
echo '==PROF== Disconnected from process 1' >"$dir/none.txt"
fake_ncu ncu_none 0 "$dir/none.txt"
{ head -n 3 "$dir/two_launches.csv"; row 0 4 "$metric" sector n/a; } >"$dir/nan.csv"
fake_ncu ncu_nan 0 "$dir/nan.csv"

export KCONFORM_NVIDIA_SMI=true  # "a GPU is present": the fake ncu is what is tested
run() {  # run <fake> <script> <args...>: status and output in $status / $output
  local fake=$1 script=$2; shift 2
  output=$(KCONFORM_NCU="$dir/$fake" "$scripts/$script" "$@" 2>&1)
  status=$?
}
expect_status() {  # expect_status <what> <status> [output fragment]
  [ "$status" -eq "$2" ] || fail "$1: exit $status, expected $2; output: $output"
  if [ -n "${3:-}" ]; then case "$output" in *"$3"*) ;; *) fail "$1: output lacks '$3': $output" ;; esac; fi
}

run ncu_ok ncu_collect.sh "$metric" full prog
expect_status "collect" 0 "launch,kernel,metric,value"
[ "$(grep -c "^[01]," <<<"$output")" -eq 4 ] || fail "collect: expected 4 value lines: $output"
grep -q "^1,(anonymous namespace)::full_coalesced_access(const float \*; const float \*; float \*; unsigned long; int),smsp__cycles_active.avg.pct_of_peak_sustained_elapsed,1024.50$" <<<"$output" ||
  fail "collect: launch 1's second metric is not '1,<kernel with ;>,<metric>,1024.50': $output"

# checks <file> <line>...: a checks file (check_ncu_metric.sh's input), one check per line.
checks() { local f=$dir/$1; shift; { echo "# a comment, then a blank line"; echo; printf '%s\n' "$@"; } >"$f"; }
checks two.checks "First $metric 3.9 4.1 full Spec A 1" "Second $metric 3.9 4.1 full_coal Spec B 2"
run ncu_ok check_ncu_metric.sh "$dir/two.checks" prog
expect_status "check, both launches in range" 0 "2 check(s), 0 failed"
grep -q -- "--metrics $metric --kernel-name regex:(full|full_coal) prog Spec A 1 Spec B 2$" "$dir/ncu_args" ||
  fail "check: ncu was not run once with the checks' metric, kernels and launches in order: $(cat "$dir/ncu_args")"
checks tight.checks "First $metric 3.9 4.1 full Spec A 1" "Second $metric 3.9 4.01 full Spec B 2"
run ncu_ok check_ncu_metric.sh "$dir/tight.checks" prog
expect_status "check, launch 1 (4.02) above 4.01" 1 "OUT OF RANGE: Second"
checks other_metric.checks "First $metric 3.9 4.1 full Spec A 1" "Second sm__warps_active.avg.pct_of_peak_sustained_active 0 100 full Spec B 2"
run ncu_ok check_ncu_metric.sh "$dir/other_metric.checks" prog
expect_status "check, a metric ncu did not report for its launch" 1 "NO VALUE: Second"
checks other_kernel.checks "First $metric 3.9 4.1 full Spec A 1" "Second $metric 3.9 4.1 vector_add Spec B 2"
run ncu_ok check_ncu_metric.sh "$dir/other_kernel.checks" prog
expect_status "check, launch 1 of another kernel" 1 "WRONG KERNEL: Second"
checks one.checks "First $metric 3.9 4.1 full Spec A 1"
run ncu_ok check_ncu_metric.sh "$dir/one.checks" prog
expect_status "check, more launches than checks" 1 "EXTRA"
checks three.checks "First $metric 3.9 4.1 full Spec A 1" "Second $metric 3.9 4.1 full Spec B 2" "Third $metric 3.9 4.1 full Spec C 3"
run ncu_ok check_ncu_metric.sh "$dir/three.checks" prog
expect_status "check, fewer launches than checks" 1 "MISSING: Third"
checks short.checks "First $metric 3.9 4.1 full"
run ncu_ok check_ncu_metric.sh "$dir/short.checks" prog
expect_status "check, a line without launch arguments" 1 "lacks a field"
checks none.checks
run ncu_ok check_ncu_metric.sh "$dir/none.checks" prog
expect_status "check, a file without checks" 1 "no check"
checks nan.checks "First $metric 0 100 full Spec A 1"
run ncu_nan check_ncu_metric.sh "$dir/nan.checks" prog
expect_status "check, a value that is not a number" 1 "OUT OF RANGE"

run ncu_perm check_ncu_metric.sh "$dir/two.checks" prog
expect_status "no counter permission" 77 "ERR_NVGPUCTRPERM"
run does_not_exist check_ncu_metric.sh "$dir/two.checks" prog
expect_status "no ncu" 77 "not installed"
output=$(KCONFORM_NCU="$dir/ncu_ok" KCONFORM_NVIDIA_SMI=false "$scripts/ncu_collect.sh" "$metric" full prog 2>&1); status=$?
expect_status "no GPU" 77 "no GPU"

run ncu_fails ncu_collect.sh "$metric" full prog
expect_status "ncu exits non-zero" 1 "ncu output (exit 1)"
run ncu_none check_ncu_metric.sh "$dir/two.checks" prog
expect_status "no launch matched" 1 "no kernel launch matched"

if [ $failures -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "ncu helpers: every check held"
