#!/usr/bin/env bash
# Tabulates a scripts/perf_experiment.sh folder (see there) as Markdown on stdout.
set -uo pipefail
out=${1:?experiment dir}
is_a_a() { awk -v p="$1" 'BEGIN { exit !(p + 0 == 0) }'; }  # plant 0 (0, 0.0, ...): the A/A run
echo "# Perf verdict experiment"
echo
echo "Per plant fraction and point class (short: baseline median < 50 µs; long: >= 50 µs): runs, points,"
echo "SLOW verdicts over all point-runs, points flagged SLOW in >= 90% of runs, and each pass's wall time."
echo
echo "| plant | class | runs | points | SLOW / point-runs | points SLOW in >= 90% of runs | other verdicts | median pass wall s |"
echo "|---|---|---|---|---|---|---|---|"
for pdir in "$out"/plant-*; do
  [ -d "$pdir" ] || continue
  plant=${pdir##*/plant-}
  walls=$(cat "$pdir"/run-*/wall_s 2>/dev/null | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}')
  cat "$pdir"/run-*/perf/*.tsv 2>/dev/null | awk -F'\t' -v plant="$plant" -v walls="$walls" '
    $1 == "key" || $12 == "" { next }
    {
      class = ($12 + 0 < 50) ? "short" : "long"
      key = $1; cls[key] = class; runs[key]++
      if ($7 == "SLOW") slow[key]++
      else if ($7 != "OK") other[class] = other[class] " " $7
    }
    END {
      split("short long", order, " ")
      for (o = 1; o <= 2; o++) {
        c = order[o]; points = 0; total = 0; slows = 0; flagged = 0; maxruns = 0
        for (k in cls) if (cls[k] == c) {
          points++; total += runs[k]; slows += slow[k]; if (runs[k] > maxruns) maxruns = runs[k]
          if (slow[k] >= 0.9 * runs[k]) flagged++
        }
        if (points == 0) continue
        n = split(other[c], kinds, " "); delete count
        summary = ""
        for (i = 1; i <= n; i++) count[kinds[i]]++
        for (v in count) summary = summary v " " count[v] " "
        if (summary == "") summary = "none"
        printf "| %s | %s | %d | %d | %d / %d | %d / %d | %s | %s |\n", plant, c, maxruns, points, slows, total, flagged, points, summary, walls
      }
    }'
done
echo
echo "## Points never flagged in >= 90% of runs under a planted slowdown"
echo
for pdir in "$out"/plant-*; do
  plant=${pdir##*/plant-}
  is_a_a "$plant" && continue
  cat "$pdir"/run-*/perf/*.tsv 2>/dev/null | awk -F'\t' -v plant="$plant" '
    $1 == "key" || $12 == "" { next }
    { runs[$1]++; base[$1] = $12; if ($7 == "SLOW") slow[$1]++ }
    END { for (k in runs) if (slow[k] < 0.9 * runs[k]) printf "- plant %s: %s (baseline %.1f µs): SLOW in %d of %d runs\n", plant, k, base[k], slow[k], runs[k] }'
done
echo
echo "## False alarms (A/A: SLOW with no planted slowdown)"
echo
for pdir in "$out"/plant-*; do
  plant=${pdir##*/plant-}
  is_a_a "$plant" && cat "$pdir"/run-*/perf/*.tsv 2>/dev/null
done | awk -F'\t' '$7 == "SLOW" { printf "- %s: ratio %s, threshold %s\n", $1, $16, $15; n++ } END { if (!n) print "none" }'
