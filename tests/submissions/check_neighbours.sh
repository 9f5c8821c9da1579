#!/usr/bin/env bash
# check_neighbours.sh <out dir>
#
# Issue 19's proof that one student's code never changes another's grade: grades the correct tiled
# matmul (matmul/correct_tiled.cu) alone, then again with the same seed inside a batch of the worst
# neighbours — a hoard of device memory through routes the in-process guard does not see
# (neighbours/hoards_memory_outside_the_guard.cu), the guarded hoard (matmul/allocates_all_memory.cu),
# a leak on every call, a kernel that spins at some shapes, a device reset, a sticky trap, and (issue
# 32) a neighbour that overwrites, renames and unlinks every other student's grade files it can reach
# and leaves a file named KCONFORM_TAMPERED in every folder it can write
# (neighbours/writes_into_neighbours.cu) — and checks that its score, verdict and every case's
# verdict are identical; that its results.json, summary.json and report.md read the same alone and
# among, but for what holds seconds (a run's seconds, a timing's milliseconds and ratio) and the
# submission's path; and that no KCONFORM_TAMPERED lies under the out folder, the suite's build, the
# repository, /tmp or /dev/shm (a submission runs in a sandboxed executor that writes only its
# scratch folder). Exit: 0 identical, 1 not, 77 no GPU (CTest's skip). KCONFORM_GRADE_SUITE_BUILD
# names the suite's build (CTest passes it).
set -uo pipefail
out=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# Side by side on a host of several GPUs (KCONFORM_PIN_TO_RESOURCE_GPU=1) this test grades on the GPU CTest
# handed it, beside the others on theirs; one at a time, its batch spreads over every GPU.
. "$root/ctest_config/pin_to_resource_gpu.sh" || { echo "FAILED: $root/ctest_config/pin_to_resource_gpu.sh is missing"; exit 2; }
pin_to_resource_gpu
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU on this machine (grading needs one)"
  case "${KCONFORM_REQUIRE_GPU:-}" in "" | 0) exit 77 ;; *) exit 1 ;; esac
fi
rm -rf "$out"
mkdir -p "$out/batch"
suite=${KCONFORM_GRADE_SUITE_BUILD:-$root/build/gpu}
tamper_markers() {  # every file named KCONFORM_TAMPERED where no submission may write
  { find "$out" "$suite" -name KCONFORM_TAMPERED
    find "$root" -maxdepth 2 -name KCONFORM_TAMPERED
    find /tmp /dev/shm -maxdepth 2 -name KCONFORM_TAMPERED
    find "${HOME:-/nonexistent}" -maxdepth 1 -name KCONFORM_TAMPERED
  } 2>/dev/null | sort -u
}
# Left behind by an earlier run: removed, so that what is found afterwards is this run's.
tamper_markers | while read -r marker; do rm -f "$marker"; done
if [ -n "$(tamper_markers)" ]; then
  echo "FAILED: an earlier run left files named KCONFORM_TAMPERED this check cannot remove (another user's: a" \
    "submission wrote them as its sandbox's user); remove them and run again:"
  tamper_markers | head -5 | sed 's/^/    /'
  exit 1
fi
seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
ln -s "$here/matmul/correct_tiled.cu" "$out/batch/correct_tiled.cu"
ln -s "$here/matmul/allocates_all_memory.cu" "$out/batch/allocates_all_memory.cu"
ln -s "$here/matmul/sticky_trap.cu" "$out/batch/sticky_trap.cu"
for f in "$here"/neighbours/*.cu; do ln -s "$f" "$out/batch/$(basename "$f")"; done

started=$(date +%s)
"$root/scripts/grade.sh" --family matmul --submission "$here/matmul/correct_tiled.cu" --student correct_tiled \
  --seed "$seed" --out "$out/alone" >"$out/alone.log" 2>&1 || { echo "FAILED: grading alone did not work"; tail "$out/alone.log"; exit 1; }
alone_s=$(($(date +%s) - started))
started=$(date +%s)
"$root/scripts/grade.sh" --family matmul --batch "$out/batch" --seed "$seed" --out "$out/among" >"$out/among.log" 2>&1 ||
  { echo "FAILED: grading the batch did not work"; tail "$out/among.log"; exit 1; }
batch_s=$(($(date +%s) - started))

# Every case's verdict, one line each: "<unit> <case> <status>" (the timing figures are left out).
verdicts() {
  for f in "$1"/run/units/*.json; do
    python3 - "$f" <<'PY'
import json, sys
unit = json.load(open(sys.argv[1]))
for c in unit.get("cases", []):
    print(unit.get("unit", "?"), c.get("name", "?"), c.get("status", "?"))
PY
  done | sort
}
field() { grep -oE "\"$2\":(\"[^\"]*\"|-?[0-9.eE+-]+)" "$1" | head -1 | sed -E "s/^\"$2\"://; s/\"//g"; }

alone=$out/alone among=$out/among/correct_tiled
verdicts "$alone" >"$out/alone.verdicts"
verdicts "$among" >"$out/among.verdicts"
failures=0
cases=$(wc -l <"$out/alone.verdicts")
[ "$cases" -gt 0 ] || { echo "FAILED: no case verdicts recorded alone"; failures=$((failures + 1)); }
if ! diff "$out/alone.verdicts" "$out/among.verdicts" >"$out/verdicts.diff"; then
  echo "FAILED: case verdicts differ between alone and among the neighbours:"
  head -20 "$out/verdicts.diff"
  # What each differing case said among the neighbours: the cause (memory, time, ...) to chase.
  for name in $(sed -n 's/^> [^ ]* \([^ ]*\) .*/\1/p' "$out/verdicts.diff" | head -5); do
    python3 - "$among/run/units" "$name" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*.json"):
    for c in json.load(open(f)).get("cases", []):
        if c.get("name") == sys.argv[2]:
            print("  among the neighbours,", c["name"], "said:", c.get("message", "")[:600])
PY
  done
  failures=$((failures + 1))
fi
for key in score verdict; do
  a=$(field "$alone/summary.json" $key) b=$(field "$among/summary.json" $key)
  [ "$a" = "$b" ] || { echo "FAILED: $key alone $a, among the neighbours $b"; failures=$((failures + 1)); }
done
# The correct student's reports, alone and among the neighbours: the same but for what holds seconds
# (summary.json's seconds, results.json's execution_time, a timing's milliseconds and ratio in the
# text) and the submission's path (the batch names it by its link).
for report in results.json summary.json report.md; do
  if ! python3 - "$alone/$report" "$among/$report" >"$out/$report.diff" <<'PY'; then
import difflib, json, re, sys
def text(s):
    s = re.sub(r"^- Submission: .*$", "- Submission: #", s, flags=re.M)
    return re.sub(r"\d+\.\d+|\d+(?= ms\b)|(?<=Ratio )\d+", "#", s)
def norm(v):
    if isinstance(v, dict): return {k: norm(x) for k, x in v.items() if k not in ("seconds", "execution_time")}
    if isinstance(v, list): return [norm(x) for x in v]
    return text(v) if isinstance(v, str) else v
def lines(path):
    raw = open(path, encoding="utf-8", errors="replace").read()
    if path.endswith(".json"): return json.dumps(norm(json.loads(raw)), indent=1, sort_keys=True).splitlines()
    return text(raw).splitlines()
try:
    a, b = lines(sys.argv[1]), lines(sys.argv[2])
except (OSError, ValueError) as e:
    print("cannot be read:", e)
    sys.exit(1)
if a != b:
    print("\n".join(list(difflib.unified_diff(a, b, "alone", "among", lineterm="", n=0))[:12]))
    sys.exit(1)
PY
    echo "FAILED: $report differs between alone and among the neighbours (seconds aside):"
    sed 's/^/    /' "$out/$report.diff"
    failures=$((failures + 1))
  fi
done
found=$(tamper_markers)
if [ -n "$found" ]; then
  echo "FAILED: $(echo "$found" | wc -l) file(s) named KCONFORM_TAMPERED: a submission wrote outside its scratch folder:"
  echo "$found" | head -5 | sed 's/^/    /'
  failures=$((failures + 1))
fi
echo "correct_tiled: $cases cases; alone: $(field "$alone/summary.json" score) ($(field "$alone/summary.json" verdict)), ${alone_s} s;" \
  "among $(($(ls "$out/batch" | wc -l) - 1)) neighbours: $(field "$among/summary.json" score) ($(field "$among/summary.json" verdict)), batch ${batch_s} s"
cat "$out/among/class.csv" 2>/dev/null
[ $failures -eq 0 ] || exit 1
echo "PASSED: the neighbours changed no verdict, no score and no report, and wrote nowhere they may not"
