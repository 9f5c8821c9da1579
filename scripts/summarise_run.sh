#!/usr/bin/env bash
# summarise_run.sh <report dir> <gpu name> <build s> <build status> <test s> <ctest status> <ctest args>
#
# Writes the GPU run's summary.md to stdout from what the run left in <report dir>: CTest's
# junit.xml (one testcase per unit or CPU test), units/*.tsv and units/*.xml (per unit: cases,
# verdicts, processes, seconds; written by tools/runner), and the benchmark tables. Also writes
# <report dir>/cases.xml: every case's verdict in one JUnit file (merged from units/). Used by
# run_gpu_suite.sh and, over several machines' reports, by merge_reports.sh.
set -u
out=$1 gpu_name=$2 build_s=$3 build_status=$4 test_s=$5 ctest_status=$6 args=$7

# An XML attribute's text as a reader wants it in markdown: entities decoded, line breaks as spaces
# (xml_text), and '|' escaped so it cannot split a table cell (pipes).
. "$(dirname "$0")/xml_text.sh"
pipes() { sed 's/|/\\|/g'; }
# Each failed case of tools/runner's units/<unit>.xml: "<unit>: <suite>.<case>", then what its failure
# says, indented: the first wrong element, the case, the replay command, the data file (a value
# check), or the verdict (a perf point), without GoogleTest's own lines around it ("<file>:<line>:
# Value of: ...", "<file>:<line>: Expected: (a) != (b), actual: ...", "Actual: false (", "Expected:
# true"). At most 8 lines a case, 300 characters a line.
failed_cases() {
  for f in "$@"; do
    [ -f "$f" ] || continue
    awk -v unit="$(basename "$f" .xml)" '
      /<testcase / {
        failed = ($0 ~ /status="failed"/); body = 0
        if (failed) {
          suite = $0; sub(/.*classname="/, "", suite); sub(/".*/, "", suite)
          name = $0; sub(/.* name="/, "", name); sub(/".*/, "", name)
          print unit ": " suite "." name
        }
      }
      failed && /<failure / { body = 1; n = 0; opened = 0; sub(/.*<failure[^>]*>/, "") }
      failed && body {
        line = $0
        last = sub(/<\/failure>.*/, "", line)
        if (sub(/^ *Actual: false \(/, "", line)) opened = 1
        # "Expected: true" closes what "Actual: false (" opened: its ")" ends the line before it.
        if (line ~ /^Expected: true *$/) { if (opened && n > 0) sub(/\) *$/, "", lines[n]); opened = 0 }
        else if (line !~ /:[0-9]+: (Value of: |Failure *$|Expected: \()/ && line !~ /^ *$/) {
          sub(/^ +/, "", line)
          if (length(line) > 300) line = substr(line, 1, 300) "..."
          lines[++n] = line
        }
        if (last) {
          for (i = 1; i <= n && i <= 8; i++) print "    " lines[i]
          body = 0
        }
      }
      /<\/testcase>/ { failed = 0; body = 0 }' "$f"
  done | xml_text
}
cell() { xml_text | pipes; }

# CTest's counts, summed over every <testsuite ... tests="N" failures="F" ... skipped="S" ...> (one
# per machine in a merged report; CTest writes the attributes on several lines).
attr() { tr '\n\t' '  ' <"$out/junit.xml" 2>/dev/null | grep -o "<testsuite [^>]*" | grep -oE " $1=\"[0-9]+\"" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}'; }
tests=$(attr tests); failures=$(attr failures); skipped=$(attr skipped); disabled=$(attr disabled)
tests=${tests:-0}; failures=${failures:-0}; skipped=${skipped:-0}; disabled=${disabled:-0}
passed=$((tests - failures - skipped - disabled))

# Per-case totals over every unit: name cases passed failed skipped processes seconds.
stats=$(cat "$out"/units/*.tsv 2>/dev/null)
sum() { echo "$stats" | awk -F'\t' -v c="$1" 'NF >= 7 {s += $c} END {print s + 0}'; }
cases=$(sum 2); case_passed=$(sum 3); case_failed=$(sum 4); case_skipped=$(sum 5); processes=$(sum 6)
units=$(echo "$stats" | awk 'NF >= 7' | wc -l)

# One JUnit file with every case: the <testsuite> elements of every unit's file.
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo "<testsuites tests=\"$cases\" failures=\"$case_failed\" skipped=\"$case_skipped\" name=\"kconform\">"
  for f in "$out"/units/*.xml; do
    [ -f "$f" ] && sed -n '/<testsuite /,/<\/testsuite>/p' "$f"
  done
  echo '</testsuites>'
} >"$out/cases.xml"

echo "# kconform GPU run"
echo
if [ "$build_status" -ne 0 ]; then verdict="FAILED: the build broke (build.log)"
elif [ "$ctest_status" -ne 0 ] || [ "$failures" -gt 0 ]; then verdict="FAILED: $failures CTest unit(s) failed or did not run"
else verdict="PASSED"; fi
echo "**Verdict: $verdict**"
echo
echo "- GPU: ${gpu_name:-none found}"
echo "- driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
# The host matters too: the CPU references and host work are a third of the unit time, and two H100
# hosts ran the same tests in 120 s and 139 s (issue 21).
[ -f "$out/host.txt" ] && echo "- host: $(head -n 1 "$out/host.txt")"
echo "- commit: ${KCONFORM_COMMIT:-$("$(dirname "$0")/tree_commit.sh" "$PWD")}"
packs=; [ "${KCONFORM_PACK_SECONDS:-0}" = 0 ] || packs=" (small units in packs of ${KCONFORM_PACK_SECONDS} s: KCONFORM_PACK_SECONDS)"
echo "- command: scripts/run_gpu_suite.sh $args${KCONFORM_SHARD:+ (shard $KCONFORM_SHARD)}$packs"
# A probe's sanitizer options can narrow what the sanitizer runs checked (ctest_config/run_sanitizer.sh).
[ -z "${KCONFORM_SANITIZER_ARGS:-}" ] ||
  echo "- sanitizer runs with KCONFORM_SANITIZER_ARGS=\"$KCONFORM_SANITIZER_ARGS\": they may have checked less than a plain run"
echo "- build: $build_s s (status $build_status); tests: $test_s s (ctest status $ctest_status)${KCONFORM_PHASE_SECONDS:+: $KCONFORM_PHASE_SECONDS}"
echo
echo "CTest: $passed passed, $failures failed, $skipped skipped (of $tests)"
echo
echo "Cases: $case_passed passed, $case_failed failed, $case_skipped skipped (of $cases, in $units GPU units and $processes processes)"
echo
# Where the time goes (issue 21): the units' wall seconds added up, the part their cases spent making
# inputs and CPU references (column 8, fixtures/time_spent.hpp), and how busy the GPU was while the
# tests ran (gpu_busy.csv: nvidia-smi's utilization, the share of each 0.5 s with a kernel running).
unit_s=$(sum 7); input_s=$(sum 8); outside_s=$(sum 10)
# Lines are "index, UUID, utilization" (one per GPU a sample), or the utilization alone (one GPU, runs
# before issue 34). Several GPUs: each named by its index and the UUID's first 12 characters
# ("GPU 0 (GPU-1a2b3c4d): 75% busy ...; 1 (GPU-5e6f7a8b): ...").
# Column 16 of the units' statistics: the GPU each ran on (the runner's resource_gpu_index(), "-" none),
# so each GPU's part also gives its units and their seconds ("..., 27 units, 180 unit-seconds").
per_gpu_units=$(echo "$stats" | awk -F'\t' 'NF >= 16 && $16 != "-" { n[$16]++; s[$16] += $7 } END { for (g in n) printf "%s %d %.0f\n", g, n[g], s[g] }')
busy=$(awk -F', *' -v per_gpu_units="$per_gpu_units" '
  BEGIN {
    lines = split(per_gpu_units, rows, "\n")
    for (r = 1; r <= lines; r++) if (split(rows[r], f, " ") == 3) { units[f[1]] = f[2]; unit_seconds[f[1]] = f[3] }
  }
  { u = "" }
  NF == 1 && $1 ~ /^[0-9]+$/ { u = $1; g = "" }
  NF >= 3 && $3 ~ /^[0-9]+$/ { u = $3; g = $1 " (" substr($2, 1, 12) ")" }
  u != "" {
    if (!(g in n)) order[++gpus] = g
    n[g]++; s[g] += u; if (u == 0) idle[g]++
  }
  END {
    for (i = 1; i <= gpus; i++) {
      g = order[i]
      text = sprintf("%.0f%% busy on average, idle in %.0f%% of %d samples", s[g] / n[g], 100 * idle[g] / n[g], n[g])
      split(g, index_of, " ")
      if (gpus > 1 && (index_of[1] in units)) text = text sprintf(", %d units, %d unit-seconds", units[index_of[1]], unit_seconds[index_of[1]])
      printf "%s%s", (i > 1 ? "; " : ""), (gpus > 1 ? g ": " : "") text
    }
  }' "$out/gpu_busy.csv" 2>/dev/null)
share() { awk -v a="$1" -v b="$unit_s" 'BEGIN { if (b > 0) printf " (%.0f%%)", 100 * a / b }'; }
# Column 10: each unit's seconds outside any case (listing, process start-up and exit; runner's stats).
outside=; awk -F'\t' 'NF >= 10 { found = 1 } END { exit !found }' <<<"$stats" && outside=" and $outside_s s outside any case (listing, process start-up, exit)$(share "$outside_s")"
# Column 17: the cases' seconds opening the GPU (the CUDA start-up each process makes in its first
# case, which the driver serialises for the host): inside the cases, not "outside any case", and on 4
# H200s at c36ac4f the largest share (307 of 809 unit-seconds).
opening=; awk -F'\t' 'NF >= 17 { found = 1 } END { exit !found }' <<<"$stats" &&
  opening=", $(sum 17) s opening the GPU (each process's CUDA start-up, in its first case)$(share "$(sum 17)")"
# Columns 11-13: the cases' seconds waiting for the GPU (a launch to its end), downloading results and
# comparing them; what is left of the case time is each case's other host work (poison, input
# checks, streams) and its synchronisations with a GPU other processes share.
split=; awk -F'\t' 'NF >= 13 { found = 1 } END { exit !found }' <<<"$stats" &&
  split="; cases waited $(sum 11) s for the GPU$(share "$(sum 11)"), $(sum 12) s downloading results$(share "$(sum 12)"), $(sum 13) s comparing$(share "$(sum 13)")"
# Columns 14-15: device allocations and frees (cudaFree waits for the device), guard zones.
awk -F'\t' 'NF >= 15 { found = 1 } END { exit !found }' <<<"$stats" &&
  split="$split, $(sum 14) s allocating and freeing device memory$(share "$(sum 14)"), $(sum 15) s writing and checking guard zones$(share "$(sum 15)")"
# The host's CPUs per phase (cpu_busy-<phase>.csv: scripts/cpu_sampler.sh, percent of all logical CPUs).
cpu=
for phase in shared alone; do
  c=$(awk '$1 ~ /^[0-9]+$/ { n++; s += $1; if ($1 >= 90) full++ } END { if (n) printf "%.0f%% busy on average, 90%% or more in %.0f%% of %d samples", s / n, 100 * full / n, n }' "$out/cpu_busy-$phase.csv" 2>/dev/null)
  [ -n "$c" ] && cpu="${cpu:+$cpu; }$phase phase $c"
done
echo "Time: $unit_s unit-seconds, of which $input_s s making inputs and CPU references$(share "$input_s")$opening$outside$split; GPU ${busy:-not sampled}${cpu:+; host CPUs: $cpu}"
# The timeline (column 9: each unit's start), swept over exact times: from the first unit's start to
# the last one's end, the seconds with no runner unit running (the benchmarks and profile runs, which
# have the machine to themselves, CPU tests, or waiting), with one alone (a tail), and the most at once.
# Ends sort before starts at the same instant, so units that only touch do not count as overlapping.
# Units that shared processes (kconform_runner --units: a pack, a quick part) are one span: the first
# carries their processes, the others 0 and the same start (and GPU, column 16), and their seconds add up.
timeline=$(echo "$stats" | awk -F'\t' 'NF >= 9 && $9 > 0 { rows++; start[rows] = $9; secs[rows] = $7; key[rows] = $9 "|" $16; own[rows] = ($6 > 0) }
    END {
      for (r = 1; r <= rows; r++) if (own[r] && !(key[r] in first)) first[key[r]] = r
      for (r = 1; r <= rows; r++) if (!own[r] && (key[r] in first)) { secs[first[key[r]]] += secs[r]; folded[r] = 1 }
      for (r = 1; r <= rows; r++) if (!folded[r]) printf "%.3f -1\n%.3f 1\n", start[r] + secs[r], start[r]
    }' |
  sort -k1,1g -k2,2n |
  awk '{ if (n++) at[level] += $1 - last; else first = $1; level += $2; if (level > most) most = level; last = $1 }
    END { if (n) printf "%.0f s from the first unit'"'"'s start to the last one'"'"'s end; no unit running for %.0f s, one alone for %.0f s, at most %d at once", last - first, at[0], at[1], most }')
# A merged report's units ran on several machines, whose clocks and GPUs do not share one timeline.
case "$args" in *"merged from"*) timeline= ;; esac
[ -n "$timeline" ] && echo "Timeline: $timeline"
echo
if [ "$failures" -gt 0 ] || [ "$ctest_status" -ne 0 ]; then
  echo "## Failed or not run"
  echo '```'
  # Each phase's list (ctest.log holds both phases' logs, one after the other).
  awk '/The following tests FAILED/ { p = 1 } /^Errors while running CTest/ { p = 0 } p' "$out/ctest.log" 2>/dev/null | head -n 40
  grep -h -B1 -x 'No tests were found!!!' "$out/ctest.log" 2>/dev/null | head -n 4  # a phase that selected nothing
  failed=$(failed_cases "$out"/units/*.xml)
  if [ -n "$failed" ]; then
    head -n 80 <<<"$failed"
    shown=$(head -n 80 <<<"$failed" | grep -c '^[^ ]')
    all=$(grep -c '^[^ ]' <<<"$failed")
    [ "$all" -le "$shown" ] || echo "... and $((all - shown)) more failed case(s): units/*.xml, cases.xml"
  fi
  echo '```'
  echo
fi
if [ -n "$stats" ]; then
  echo "## The ten slowest units"
  echo
  echo "| unit | cases | processes | seconds | inputs and references, s |"
  echo "|---|---|---|---|---|"
  echo "$stats" | awk -F'\t' 'NF >= 7' | sort -t$'\t' -k7,7 -rn | head -n 10 | awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $6, $7, (NF >= 8 ? $8 : "-")}'
  echo
fi
# Each known-bad row's verdict (gtest properties "verdict" / "first_catch", kept in the unit's JUnit).
verdicts=$(for f in "$out"/units/*known_bad*.xml; do
  [ -f "$f" ] || continue
  tr '\n' ' ' <"$f" | sed 's/<testcase /\n<testcase /g' | grep '^<testcase' | while read -r line; do
    row=$(echo "$line" | grep -o ' name="[^"]*"' | head -n 1 | sed 's/.*name="//; s/"$//' | cell)
    v=$(echo "$line" | grep -o 'name="verdict" value="[^"]*"' | sed 's/.*value="//; s/"$//' | cell)
    c=$(echo "$line" | grep -o 'name="first_catch" value="[^"]*"' | sed 's/.*value="//; s/"$//' | xml_text | cut -c1-300 | pipes)
    [ -n "$v" ] && echo "| ${row##*/} | $v | $c |"
  done
done)
if [ -n "$verdicts" ]; then
  echo "## Known-bad rows (value checks)"
  echo
  echo "| row | verdict | first catch |"
  echo "|---|---|---|"
  echo "$verdicts"
  echo
fi
# Perf verdicts: perf/*.tsv holds a row per judged point (columns in fixtures/perf_verdict.hpp: 1 key,
# 7 verdict, 16 ratio, 17 planted_fraction, 21 gpu_index and 22 gpu_uuid since issue 34, absent in
# older rows of 20); kconform_perf_report draws them into perf.html.
if ls "$out"/perf/*.tsv >/dev/null 2>&1; then
  perf_lines=$(cat "$out"/perf/*.tsv | grep -v -e $'^key\t' -e '^[[:space:]]*$')
  perf_rows=$(echo "$perf_lines" | awk -F'\t' 'NF == 20 || (NF == 22 && $21 ~ /^(-1|[0-9]+)$/)')
  perf_malformed=$(( $(echo "$perf_lines" | awk 'NF' | wc -l) - $(echo "$perf_rows" | awk 'NF' | wc -l) ))
  echo "## Performance"
  echo
  echo "$perf_rows" | awk -F'\t' 'NF {n[$7]++; all++}
    END {printf "Perf points: %d (OK %d, SLOW %d, FAST %d, AMBIGUOUS %d, NO_BASELINE %d)\n", all, n["OK"], n["SLOW"], n["FAST"], n["AMBIGUOUS"], n["NO_BASELINE"]}'
  [ "$perf_malformed" -gt 0 ] && echo "($perf_malformed malformed rows left out)"
  # Per family (column 2), so a family whose points are all skipped for want of a baseline shows.
  echo
  echo "| family | points | OK | SLOW | FAST | AMBIGUOUS | NO_BASELINE |"
  echo "|---|---|---|---|---|---|---|"
  echo "$perf_rows" | awk -F'\t' 'NF {all[$2]++; n[$2, $7]++}
    END {for (f in all) printf "| %s | %d | %d | %d | %d | %d | %d |\n", f, all[f], n[f, "OK"], n[f, "SLOW"], n[f, "FAST"], n[f, "AMBIGUOUS"], n[f, "NO_BASELINE"]}' | sort
  planted=$(echo "$perf_rows" | awk -F'\t' '$17 + 0 > m {m = $17 + 0} END {if (m > 0) printf "%.1f", m * 100}')
  [ -n "$planted" ] && echo && echo "**Planted slowdown of $planted% — SLOW verdicts are expected.**"
  # Each notable point names the card it ran on (index and the UUID's first 12 characters, as the
  # "Time" line names GPUs): on a host of several GPUs a slow card shows as its points.
  notable=$(for v in SLOW AMBIGUOUS FAST; do
    echo "$perf_rows" | awk -F'\t' -v v="$v" '$7 == v {
      card = (NF == 22 && $21 ~ /^[0-9]+$/) ? sprintf("GPU %d (%s)", $21, substr($22, 1, 12)) : (NF == 22 && $22 != "" ? substr($22, 1, 12) : "-")
      printf "| %s | %s | %s | %+.1f%% |\n", $1, card, $7, ($16 - 1) * 100}'
  done)
  if [ -n "$notable" ]; then
    echo
    echo "| point | GPU | verdict | change vs baseline |"
    echo "|---|---|---|---|"
    echo "$notable"
  fi
  echo
  perf_tool=build/gpu/tools/perf_report/kconform_perf_report
  if [ ! -x "$perf_tool" ]; then
    echo "perf.html not written: $perf_tool is not built"
  elif perf_error=$("$perf_tool" --report-dir "$out" 2>&1 >/dev/null); then
    echo "Charts and every point's figures: [perf.html](perf.html)"
  else
    echo "perf.html not written: $perf_error"
  fi
  echo
fi
for table in "$out"/*_benchmark.md; do
  [ -f "$table" ] || continue
  echo
  sed -n '1,/^## All measurements/p' "$table" | sed '$d'
done
