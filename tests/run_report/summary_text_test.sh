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
echo "passed: the first catch reads decoded, on one line, with its first wrong element"
