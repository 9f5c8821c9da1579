#!/usr/bin/env bash
# progress_line.sh <build|shared|alone> <log> <report dir> <done file> [last seconds] [costs file] [parallel]
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
# The estimate of what is left, best first:
#   - <costs file> ("<test name> <seconds>" for the phase's tests, from CTest's measured costs, which a
#     fresh build has from ctest_config/test_costs.txt): the seconds of the tests not done yet, over
#     <parallel> (the GPU slots of the shared phase, 1 alone), and never less than the longest one;
#   - the last run's time minus the elapsed (when given and not passed);
#   - the elapsed time scaled by the tests left (tests differ in length, so it is rough).
set -u
phase=$1 log=$2 report=$3 done_file=$4 last=${5:-} costs=${6:-} parallel=${7:-1}
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
    to_go=
    if [ -n "$costs" ] && [ -s "$costs" ]; then
      # The measured seconds of the tests not finished: over the slots, but no less than the longest.
      to_go=$(awk -v par="$parallel" 'NR == FNR { if (NF >= 2) cost[$1] = $2; next }
        /^ *[0-9]+\/[0-9]+ Test +#/ { for (i = 1; i <= NF; i++) if ($i ~ /^#/) { delete cost[$(i + 1)]; break } }
        END { for (t in cost) { s += cost[t]; if (cost[t] > m) m = cost[t] } s = s / (par > 0 ? par : 1); if (m > s) s = m;
              printf "%.0f", s }' "$costs" "$log" 2>/dev/null)
    fi
    if [ -n "$to_go" ] && [ "${total:-0}" -gt "${done:-0}" -o "${total:-0}" -eq 0 ]; then
      left="about $to_go s left (measured seconds of the tests to go)"
    elif [ -n "$last" ] && [ "$elapsed" -lt "$last" ]; then left="about $((last - elapsed)) s left (the last run took $last s)"
    elif [ "${done:-0}" -gt 0 ] && [ "${total:-0}" -gt "$done" ]; then left="about $((elapsed * (total - done) / done)) s left"
    elif [ "${total:-0}" -eq 0 ]; then left="starting"
    else left="finishing"; fi
    label="tests sharing the GPU"; [ "$phase" = alone ] && label="tests alone on the GPU"
    total_text=${total:-0}; [ "$total_text" = 0 ] && total_text="?"  # CTest prints the count with the first result
    text="$label: ${done:-0}/$total_text tests done (${failed:-0} failed), cases ${passed:-0} passed ${cases_failed:-0} failed, ${elapsed} s, $left"
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
