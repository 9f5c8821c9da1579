#!/usr/bin/env bash
# cpu_sampler.sh <interval s>: how busy this host's CPUs are, one line per interval until killed —
# the share of all logical CPUs' time in that interval not idle or waiting for I/O, in percent
# (/proc/stat's first line). The GPU run samples each test phase with it beside nvidia-smi's GPU
# utilization (summary.md's "Time" line): a phase whose CPU is near 100% is bound by the CPU
# references and host work, not by the GPU or the slots (issue 21).
set -u
interval=${1:-0.5}
read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
prev_total=$((user + nice + system + idle + iowait + irq + softirq + steal)) prev_idle=$((idle + iowait))
while sleep "$interval"; do
  read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
  total=$((user + nice + system + idle + iowait + irq + softirq + steal)) idle_now=$((idle + iowait))
  d_total=$((total - prev_total)) d_idle=$((idle_now - prev_idle))
  [ "$d_total" -gt 0 ] && echo $(( (100 * (d_total - d_idle) + d_total / 2) / d_total ))
  prev_total=$total prev_idle=$idle_now
done
