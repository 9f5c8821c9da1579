#!/usr/bin/env bash
# progress_line.sh <build|shared|alone> <log> <report dir> <done file> [seconds the last run took]
#
# The main job's progress while it runs (run_gpu_suite.sh starts it beside the build and beside
# CTest, and creates <done file> when they end). On a terminal: one line, rewritten every second;
# elsewhere (a CI log): a plain line every 15 s. What it reads is what the run writes anyway:
#   build  ninja's "[n/m]" steps in <log>
#   shared, alone  (the test phases: tests that share the GPU, then those that have it alone)
#          CTest's "n/m Test #k: name ... Passed" lines in <log> (CTest tests done of all; failed: CTest's
#          "***Failed", "***Timeout", "***Exception", "***Not Run" marks, never a word in a test's
#          name, and never "***Skipped", which is not a failure), the runner's
#          units/*.tsv in <report dir> (cases passed/failed so far, per finished unit), the failed units
# The estimate of what is left: the last run's time minus the elapsed (when given and not passed),
# else the elapsed time scaled by the units left (units differ in length, so it is rough).
set -u
phase=$1 log=$2 report=$3 done_file=$4 last=${5:-}
start=$(date +%s)
if [ -t 1 ]; then every=1 end_of_line=$'\r\033[K' newline=''; else every=15 end_of_line='' newline=$'\n'; fi
line() {
  local elapsed=$(($(date +%s) - start)) text left
  if [ "$phase" = build ]; then
    step=$(grep -oE '^\[[0-9]+/[0-9]+\]' "$log" 2>/dev/null | tail -n 1 | tr -d '[]')
    text="build: ${step:-0/?} steps, ${elapsed} s"
  else
    read -r done total failed < <(awk '/^ *[0-9]+\/[0-9]+ Test +#/ { split($1, p, "/"); n++; t = p[2];
      if ($0 ~ /\*\*\*(Failed|Timeout|Exception|Not Run)/) f++ } END { print n + 0, t + 0, f + 0 }' "$log" 2>/dev/null)
    read -r passed cases_failed < <(cat "$report"/units/*.tsv 2>/dev/null |
      awk -F'\t' 'NF >= 7 { p += $3; f += $4 } END { print p + 0, f + 0 }')
    if [ -n "$last" ] && [ "$elapsed" -lt "$last" ]; then left="about $((last - elapsed)) s left (the last run took $last s)"
    elif [ "${done:-0}" -gt 0 ] && [ "${total:-0}" -gt "$done" ]; then left="about $((elapsed * (total - done) / done)) s left"
    else left="finishing"; fi
    label="tests sharing the GPU"; [ "$phase" = alone ] && label="tests alone on the GPU"
    text="$label: ${done:-0}/${total:-?} tests done (${failed:-0} failed), cases ${passed:-0} passed ${cases_failed:-0} failed, ${elapsed} s, $left"
  fi
  printf '%s%s%s' "$end_of_line" "$text" "$newline"
}
while [ ! -e "$done_file" ]; do
  line
  for _ in $(seq "$every"); do [ -e "$done_file" ] && break; sleep 1; done
done
line
[ -t 1 ] && echo
exit 0
