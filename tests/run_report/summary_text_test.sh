#!/usr/bin/env bash
# summary.md's words as a reader reads them (issue 35): scripts/summarise_run.sh on a copy of the
# recorded run (tests/run_report/recorded_run) whose known-bad row's first catch holds what JUnit
# escapes (&apos; &gt; &lt; &amp; &quot;, a line break) and a '|': the table cell must show the text
# decoded, on one line, its '|' escaped, and the first wrong element (the first catch's second line).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/recorded_run" "$work/run"
xml="$work/run/units/matmul.known_bad.KnownBadMatmul.xml"
# The first row's first catch, as the old recorder's line break and JUnit's escaping leave it.
sed -i '0,/name="first_catch" value="[^"]*"/s//name="first_catch" value="M33 \&apos;odd\&apos;: 3 of 9 \&gt; 0 \&amp;\&amp; a|b; first:\&#10;    C[0][2]: expected 1, got \&lt;NaN\&gt;"/' "$xml"
bash "$root/scripts/summarise_run.sh" "$work/run" "NVIDIA H100" 1 0 1 0 "" >"$work/summary.md" 2>/dev/null
row=$(grep '^| MM1AsWritten |' "$work/summary.md") || { echo "FAILED: no MM1AsWritten row"; exit 1; }
want="M33 'odd': 3 of 9 > 0 && a\\|b; first:     C[0][2]: expected 1, got <NaN>"
case "$row" in
  *"$want"*) ;;
  *) echo "FAILED: the first-catch cell reads: $row"; echo "   expected it to hold: $want"; exit 1 ;;
esac
if grep -nE '&(apos|gt|lt|amp|quot|#10);' "$work/summary.md"; then
  echo "FAILED: summary.md still carries XML entities (above)"
  exit 1
fi
# Issue 34: with two GPUs sampled (index, UUID, utilization per line), the Time line gives each GPU's
# busy share under its index and UUID; one GPU's old one-column file still reads as before.
printf '0, GPU-1111aaaa-2222, 50\n1, GPU-4444bbbb-5555, 0\n0, GPU-1111aaaa-2222, 100\n1, GPU-4444bbbb-5555, 20\n' >"$work/run/gpu_busy.csv"
bash "$root/scripts/summarise_run.sh" "$work/run" "NVIDIA H100" 1 0 1 0 "" >"$work/summary2.md" 2>/dev/null
want="GPU 0 (GPU-1111aaaa): 75% busy on average, idle in 0% of 2 samples; 1 (GPU-4444bbbb): 10% busy on average, idle in 50% of 2 samples"
grep -qF "$want" "$work/summary2.md" || { echo "FAILED: per-GPU busy line:"; grep '^Time:' "$work/summary2.md"; exit 1; }
# ... and with the units' GPU in their statistics (column 16), each GPU's units and unit-seconds.
first=1
for tsv in "$work"/run/units/*.tsv; do
  gpu=$([ $first = 1 ] && echo 1 || echo 0); first=0
  # (the recorded statistics predate columns 8-15: zeros stand in for them)
  awk -F'\t' -v OFS='\t' -v gpu="$gpu" 'NF >= 7 { while (NF < 15) $(NF + 1) = 0; NF = 15; $16 = gpu } { print }' "$tsv" \
    >"$tsv.new" && mv "$tsv.new" "$tsv"
done
gpu1=$(awk -F'\t' '$16 == 1 { n++; s += $7 } END { printf "%d units, %.0f unit-seconds", n, s }' "$work"/run/units/*.tsv)
gpu0=$(awk -F'\t' '$16 == 0 { n++; s += $7 } END { printf "%d units, %.0f unit-seconds", n, s }' "$work"/run/units/*.tsv)
bash "$root/scripts/summarise_run.sh" "$work/run" "NVIDIA H100" 1 0 1 0 "" >"$work/summary4.md" 2>/dev/null
want="GPU 0 (GPU-1111aaaa): 75% busy on average, idle in 0% of 2 samples, $gpu0; 1 (GPU-4444bbbb): 10% busy on average, idle in 50% of 2 samples, $gpu1"
grep -qF "$want" "$work/summary4.md" || { echo "FAILED: per-GPU units:"; grep '^Time:' "$work/summary4.md"; echo "expected: $want"; exit 1; }
# Column 17: the cases' seconds opening the GPU, with its share; absent from older statistics (above).
grep -q 'opening the GPU' "$work/summary4.md" && { echo "FAILED: an opening share from 16 columns:"; grep '^Time:' "$work/summary4.md"; exit 1; }
for tsv in "$work"/run/units/*.tsv; do
  awk -F'\t' -v OFS='\t' 'NF >= 16 { $17 = 0.25 } { print }' "$tsv" >"$tsv.new" && mv "$tsv.new" "$tsv"
done
opened=$(awk -F'\t' '{ s += $17 } END { print s }' "$work"/run/units/*.tsv)
unit_s=$(awk -F'\t' '{ s += $7 } END { print s }' "$work"/run/units/*.tsv)
want=$(awk -v o="$opened" -v u="$unit_s" 'BEGIN { printf "CPU references (0%%), %s s opening the GPU (each process'"'"'s CUDA start-up, in its first case) (%.0f%%) and ", o, 100 * o / u }')
bash "$root/scripts/summarise_run.sh" "$work/run" "NVIDIA H100" 1 0 1 0 "" >"$work/summary6.md" 2>/dev/null
grep -qF "$want" "$work/summary6.md" || { echo "FAILED: the opening share:"; grep '^Time:' "$work/summary6.md"; echo "expected: $want"; exit 1; }
printf '50\n0\n100\n' >"$work/run/gpu_busy.csv"
bash "$root/scripts/summarise_run.sh" "$work/run" "NVIDIA H100" 1 0 1 0 "" >"$work/summary3.md" 2>/dev/null
grep -qF "GPU 50% busy on average, idle in 33% of 3 samples" "$work/summary3.md" ||
  { echo "FAILED: one GPU's busy line:"; grep '^Time:' "$work/summary3.md"; exit 1; }
# Issue 34: a perf row names its card (columns 21-22); a notable point says which card it ran on, and
# a row from before (20 columns) still counts, its card unknown.
printf '%s\t' "reduction/Slow/n=2^26/block=256" reduction Slow "n=2^26" "block=256" "NVIDIA H100 80GB HBM3" SLOW \
  120 119 121 "" 100 99.5 100.5 0.03 1.2 0 50 4 1980 2 >"$work/run/perf/slow_card.tsv"
printf 'GPU-1a2b3c4d-0000-1111-2222-333344445555\n' >>"$work/run/perf/slow_card.tsv"
bash "$root/scripts/summarise_run.sh" "$work/run" "NVIDIA H100" 1 0 1 0 "" >"$work/summary5.md" 2>/dev/null
grep -qF "| reduction/Slow/n=2^26/block=256 | GPU 2 (GPU-1a2b3c4d) | SLOW | +20.0% |" "$work/summary5.md" ||
  { echo "FAILED: the slow point's card:"; sed -n '/^## Performance/,/^## /p' "$work/summary5.md"; exit 1; }
grep -qF "Perf points: 3 (OK 1, SLOW 1, FAST 0, AMBIGUOUS 1, NO_BASELINE 0)" "$work/summary5.md" ||
  { echo "FAILED: old and new rows counted together:"; grep '^Perf points' "$work/summary5.md"; exit 1; }
# The failed cases under "Failed or not run": each named with its unit, then what its failure says
# (not GoogleTest's "Value of"/"Expected" lines, nor a property's name="..." as before), and a perf
# point's verdict though its properties come first.
sed -n '/^## Failed or not run/,/^## The ten/p' "$work/summary.md" >"$work/failed.txt"
for want in "matmul.conformance.SharedTiled: Matmul/Conformance.MatchesReference/SharedTiledM3N5K2B16TW16Integer" \
  "    C[0][4]: expected 5, got 0 (first of 3 wrong elements of 15: the last column)" \
  "    replay: KCONFORM_SEED=20261122 /work/main/build/gpu/tests/matmul_gpu_tests --gtest_filter='Matmul/Conformance.MatchesReference/SharedTiledM3N5K2B16TW16Integer'"; do
  grep -qxF -- "$want" "$work/failed.txt" || { echo "FAILED: the failed case's lines lack: $want"; cat "$work/failed.txt"; exit 1; }
done
grep -q 'data: .*SharedTiledM3N5K2B16TW16Integer.txt$' "$work/failed.txt" ||
  { echo "FAILED: the data line keeps the closing ')' of 'Actual: false ('"; cat "$work/failed.txt"; exit 1; }
if grep -nE 'name="|Value of:|Expected: true' "$work/failed.txt"; then echo "FAILED: GoogleTest's or XML's words above"; exit 1; fi
perf_unit="$work/run/units/polybench.perf.AgainstBaseline.xml"
cat >"$perf_unit" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="1" skipped="0" time="3.8" name="polybench.perf.AgainstBaseline">
  <testsuite name="polybench.perf.AgainstBaseline" tests="1" failures="1" skipped="0" errors="0" time="3.8">
    <testcase classname="Polybench/PolybenchPerf" name="NotSlowerThanBaseline/Conv2dSharedTileN4096" time="1.2" status="failed">
      <properties><property name="gpu" value="NVIDIA H100 80GB HBM3"/><property name="input_seconds" value="0.4"/></properties>
      <failure message="/w/fixtures/perf_check.hpp:73: Expected: (kc_outcome.result) != (::kc::perf::verdict::slow), actual: 4-byte object &lt;01-00 00-00&gt; vs 4-byte object &lt;01-00 00-00&gt;">/w/fixtures/perf_check.hpp:73: Expected: (kc_outcome.result) != (::kc::perf::verdict::slow), actual: 4-byte object &lt;01-00 00-00&gt; vs 4-byte object &lt;01-00 00-00&gt;
polybench/Conv2dSharedTile/4096x4096/block=16x16: SLOW, +3.0% over the baseline (threshold 3.0%)</failure>
    </testcase>
  </testsuite>
</testsuites>
XML
bash "$root/scripts/summarise_run.sh" "$work/run" "NVIDIA H100" 1 0 1 0 "" 2>/dev/null | sed -n '/^## Failed or not run/,/^## The ten/p' >"$work/failed2.txt"
grep -qxF "polybench.perf.AgainstBaseline: Polybench/PolybenchPerf.NotSlowerThanBaseline/Conv2dSharedTileN4096" "$work/failed2.txt" &&
  grep -qxF "    polybench/Conv2dSharedTile/4096x4096/block=16x16: SLOW, +3.0% over the baseline (threshold 3.0%)" "$work/failed2.txt" ||
  { echo "FAILED: the slow perf case:"; cat "$work/failed2.txt"; exit 1; }
if grep -nE 'name="|4-byte object' "$work/failed2.txt"; then echo "FAILED: GoogleTest's or XML's words above"; exit 1; fi
# Many failed cases: the first 80 lines' worth, then how many more there are; a line cut at 300 characters.
many="$work/many"
cp -r "$here/recorded_run" "$many"
python3 - "$many/units/matmul.conformance.SharedTiled.xml" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
case = re.search(r'    <testcase [^\n]*status="failed">.*?</testcase>\n', text, re.S).group(0)
more = "".join(case.replace("M3N5K2", "M3N5K%d" % k) for k in range(3, 33))
more = more.replace("the last column)", "the last column " + "x" * 400 + ")", 1)
open(path, "w").write(text.replace(case, case + more))
PY
bash "$root/scripts/summarise_run.sh" "$many" "NVIDIA H100" 1 0 1 0 "" 2>/dev/null | sed -n '/^## Failed or not run/,/^## The ten/p' >"$work/failed3.txt"
grep -qxF "... and 15 more failed case(s): units/*.xml, cases.xml" "$work/failed3.txt" ||
  { echo "FAILED: 31 failed cases, 16 shown, and no word of the other 15:"; tail -4 "$work/failed3.txt"; exit 1; }
long=$(awk '{ if (length($0) > n) n = length($0) } END { print n }' "$work/failed3.txt")
[ "$long" -le 310 ] || { echo "FAILED: a failure line of $long characters (cut at 300)"; exit 1; }
# Units that shared processes (kconform_runner --units: a pack) are one span on the timeline: the first
# carries their processes, the others 0 and the same start and GPU, their seconds added. Here a pack of
# two (10 s + 5 s from t = 100) beside a unit of its own (from t = 112 for 2 s): 15 s from start to
# end, at most 2 at once; the processes counted once (2 + 1).
timeline="$work/timeline"
cp -r "$here/recorded_run" "$timeline"
rm -f "$timeline"/units/*.tsv
row() { printf '%s\t1\t1\t0\t0\t%s\t%s\t0\t%s\t0\t0\t0\t0\t0\t0\t0\t0\n' "$@"; }
row fam.conformance.A 2 10 100 >"$timeline/units/fam.conformance.A.tsv"
row fam.conformance.B 0 5 100 >"$timeline/units/fam.conformance.B.tsv"
row fam.conformance.C 1 2 112 >"$timeline/units/fam.conformance.C.tsv"
bash "$root/scripts/summarise_run.sh" "$timeline" "NVIDIA H100" 1 0 1 0 "" >"$work/summary7.md" 2>/dev/null
grep -qxF "Timeline: 15 s from the first unit's start to the last one's end; no unit running for 0 s, one alone for 13 s, at most 2 at once" "$work/summary7.md" ||
  { echo "FAILED: a pack's units as one span:"; grep '^Timeline' "$work/summary7.md"; exit 1; }
grep -qF "in 3 GPU units and 3 processes" "$work/summary7.md" || { echo "FAILED: the processes:"; grep '^Cases' "$work/summary7.md"; exit 1; }
echo "passed: the first catch reads decoded, on one line, with its first wrong element; busy time and units per GPU;" \
  "a slow perf point names its card; each failed case is named with what its failure says; a pack's units one span"
