#!/usr/bin/env bash
# check_gradescope.sh <out dir>
#
# grading/gradescope/run_autograder, as Gradescope runs it, for every family of expected.tsv: an
# autograder folder per family (source/family, submission/<example>.cu) with the family's first
# example that needs no GPU (a missing entry point or a compile error), and the checks that
# results.json is where Gradescope reads it, is valid JSON and carries the expected score; then the
# two set-up mistakes (no family, no .cu uploaded) give a results.json that says so. Runs on any
# machine (label cpu). KCONFORM_GRADE_SUITE_BUILD names the suite's build (CTest passes it).
set -uo pipefail
out=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rm -rf "$out" && mkdir -p "$out"
failures=0
check_results() {  # <results.json> <expected score> <what>
  python3 - "$1" "$2" "$3" <<'PY' || failures=$((failures + 1))
import json, sys
path, want, what = sys.argv[1], float(sys.argv[2]), sys.argv[3]
try:
    r = json.load(open(path))
except Exception as e:
    sys.exit(f"FAILED: {what}: no valid results.json ({e})")
if abs(float(r.get("score", -1)) - want) > 1e-9:
    sys.exit(f"FAILED: {what}: score {r.get('score')}, expected {want}")
print(f"{what}: results.json score {r['score']}, {len(r.get('tests', []))} test(s)")
PY
}
families=$(grep -v '^#' "$here/expected.tsv" | cut -f1 | awk 'NF && !seen[$0]++')
for family in $families; do
  row=$(grep -v '^#' "$here/expected.tsv" | awk -F'\t' -v f="$family" '$1 == f && $3 == "cpu" { print; exit }')
  [ -n "$row" ] || { echo "FAILED: $family has no example that needs no GPU in expected.tsv"; failures=$((failures + 1)); continue; }
  example=$(cut -f2 <<<"$row") score=$(cut -f5 <<<"$row")
  top="$out/$family"
  mkdir -p "$top/source" "$top/submission"
  echo "$family" >"$top/source/family"
  cp "$here/$family/$example.cu" "$top/submission/"
  KCONFORM_AUTOGRADER_ROOT="$top" KCONFORM_SOURCE="$root" "$root/grading/gradescope/run_autograder" >"$top/log.txt" 2>&1
  check_results "$top/results/results.json" "$score" "$family/$example"
done
# The set-up mistakes: still a results.json, saying what is wrong.
top="$out/no-family" && mkdir -p "$top/submission" && : >"$top/submission/x.cu"
KCONFORM_AUTOGRADER_ROOT="$top" KCONFORM_SOURCE="$root" "$root/grading/gradescope/run_autograder" >"$top/log.txt" 2>&1
check_results "$top/results/results.json" 0 "no family set up"
grep -q "no family" "$top/results/results.json" || { echo "FAILED: no family: results.json does not say so"; failures=$((failures + 1)); }
top="$out/no-file" && mkdir -p "$top/source" "$top/submission" && echo matmul >"$top/source/family"
KCONFORM_AUTOGRADER_ROOT="$top" KCONFORM_SOURCE="$root" "$root/grading/gradescope/run_autograder" >"$top/log.txt" 2>&1
check_results "$top/results/results.json" 0 "nothing uploaded"
grep -q "No .cu file" "$top/results/results.json" || { echo "FAILED: nothing uploaded: results.json does not say so"; failures=$((failures + 1)); }
[ $failures -eq 0 ] || { echo "FAILED: $failures check(s)"; exit 1; }
echo "PASSED: run_autograder wrote results.json for every family"
