#!/usr/bin/env bash
# grade_differences.sh <alone dir> <beside dir> [<counts file>]
#
# Issue 33: what differs between one submission's grade alone and its grade beside neighbours (two
# grade.sh folders, the same seed). Compared:
#   - every case's verdict (passed / failed / skipped) in run/units/*.json, every unit's, the
#     sanitizer tools' (grade.sanitizer.<tool>) and the performance case's included; a case recorded
#     on one side only is a difference;
#   - every group of summary.json (score, max_score and its counts: counted, passed, failed, skipped,
#     not_counted, empty), the total score and the verdict; every test of results.json (score,
#     max_score, status); the units and case counts the grading program listed (run/listed_units.tsv).
# Not compared: what measures time — seconds, a case's message and properties, among them the
# performance case's measured ratio. The performance group's score is compared, although it is a
# function of that ratio: the check is run on correct submissions whose ratio (about 1.0 on the H100,
# docs/grading.md "Measured") is far below the 1.2 at which points start to go, so the score does not
# move with the ratio's noise; where it does differ, both ratios are printed, so a ratio near 1.2 (noise)
# can be told from a neighbour's slowing.
# Refused as nothing to compare (exit 2): alone, no case recorded; a unit the grading program listed,
# or a sanitizer tool, with no recorded case (a skipped compute-sanitizer would otherwise compare
# equal, having compared nothing).
# Prints each difference (with what the case said beside), then one line of counts; with a counts
# file, writes "<cases>\t<case differences>\t<groups>\t<group differences>\t<rerun beside>" there
# (rerun beside: cases the runner ran again beside the neighbours after running out of device memory).
# Exit: 0 identical, 1 a difference, 2 nothing to compare or a folder unreadable.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: grade_differences.sh <alone dir> <beside dir> [<counts file>]" >&2; exit 2; }
exec python3 - "$1" "$2" "${3:-}" <<'PY'
import glob, json, os, sys

alone_dir, beside_dir, counts_file = sys.argv[1], sys.argv[2], sys.argv[3]
TOOLS = ("memcheck", "racecheck", "synccheck")
RERUN_WORDS = "failed out of device memory"  # tools/runner's note on a case run again after an OOM


def load(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"cannot compare: {path}: {e}")
        sys.exit(2)


def cases(folder):
    """{(unit, case): (status, message, properties)} from run/units/*.json."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, "run", "units", "*.json"))):
        unit_doc = load(path)
        unit = unit_doc.get("unit") or os.path.basename(path)[: -len(".json")]
        for c in unit_doc.get("cases", []):
            found[(unit, c.get("name", "?"))] = (c.get("status", "?"), c.get("message", ""), c.get("properties", {}))
    return found


def listed(folder):
    path = os.path.join(folder, "run", "listed_units.tsv")
    try:
        with open(path, encoding="utf-8") as f:
            return [tuple(line.rstrip("\n").split("\t")[:2]) for line in f if line.strip()]
    except OSError:
        return None


alone_cases, beside_cases = cases(alone_dir), cases(beside_dir)
alone_listed, beside_listed = listed(alone_dir), listed(beside_dir)

# ---- nothing to compare ----
units_with_cases = {unit for unit, _ in alone_cases}
empty = []
if not alone_cases:
    empty.append("no case verdict recorded alone")
if alone_listed is None:
    empty.append("alone, no run/listed_units.tsv")
else:
    empty += [f"unit {u} was listed alone ({n} cases) and recorded no case" for u, n in alone_listed
              if n != "0" and "grade." + u not in units_with_cases]
empty += [f"sanitizer tool {t} recorded no case alone" for t in TOOLS if "grade.sanitizer." + t not in units_with_cases]
if empty:
    for line in empty:
        print("cannot compare:", line)
    sys.exit(2)

differences = []

# ---- case verdicts ----
case_differences = 0
for key in sorted(set(alone_cases) | set(beside_cases)):
    a, b = alone_cases.get(key), beside_cases.get(key)
    a_status, b_status = a[0] if a else "no record", b[0] if b else "no record"
    if a_status == b_status:
        continue
    case_differences += 1
    said = (b[1] if b else "").strip().replace("\n", " ")[:400]
    differences.append(f"case {key[0]} {key[1]}: alone {a_status}, beside {b_status}" + (f" ({said})" if said else ""))

# ---- groups, total, verdict ----
alone_summary = load(os.path.join(alone_dir, "summary.json"))
beside_summary = load(os.path.join(beside_dir, "summary.json"))
alone_groups, beside_groups = alone_summary.get("groups", {}), beside_summary.get("groups", {})


def ratios(found):
    return ", ".join(str(c[2].get("ratio", "?")) for (unit, _), c in sorted(found.items()) if unit == "grade.performance") or "none"


group_differences = 0
for name in sorted(set(alone_groups) | set(beside_groups)):
    a, b = alone_groups.get(name), beside_groups.get(name)
    if a == b:
        continue
    group_differences += 1
    if a is None or b is None:
        differences.append(f"group {name}: only {'beside' if a is None else 'alone'}")
        continue
    changed = ", ".join(f"{k} {a.get(k)} -> {b.get(k)}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
    line = f"group {name}: {changed}"
    if name == "performance":
        line += f" (measured ratio alone {ratios(alone_cases)}, beside {ratios(beside_cases)})"
    differences.append(line)
for key in ("score", "max_score", "verdict"):
    if alone_summary.get(key) != beside_summary.get(key):
        differences.append(f"summary {key}: alone {alone_summary.get(key)}, beside {beside_summary.get(key)}")

# ---- results.json (what Gradescope shows) ----
def tests(folder):
    doc = load(os.path.join(folder, "results.json"))
    return doc.get("score"), {t.get("name"): (t.get("score"), t.get("max_score"), t.get("status")) for t in doc.get("tests", [])}


(alone_total, alone_tests), (beside_total, beside_tests) = tests(alone_dir), tests(beside_dir)
if alone_total != beside_total:
    differences.append(f"results.json score: alone {alone_total}, beside {beside_total}")
for name in sorted(set(alone_tests) | set(beside_tests), key=str):
    if alone_tests.get(name) != beside_tests.get(name):
        differences.append(f"results.json test {name}: alone (score, max, status) {alone_tests.get(name)}, "
                           f"beside {beside_tests.get(name)}")

# ---- what the grading program listed (a function of the traits only) ----
if alone_listed != beside_listed:
    differences.append(f"listed units: alone {alone_listed}, beside {beside_listed}")

for line in differences:
    print("  " + line)
rerun = sum(1 for c in beside_cases.values() if RERUN_WORDS in c[1])
print(f"{len(alone_cases)} cases in {len(units_with_cases)} units and {len(alone_groups)} groups compared: "
      f"{case_differences} case verdict(s) and {group_differences} group(s) differ, {len(differences)} difference(s) "
      f"in all; beside, {rerun} case(s) were run again after running out of device memory")
if counts_file:
    with open(counts_file, "w", encoding="utf-8") as f:
        f.write(f"{len(alone_cases)}\t{case_differences}\t{len(alone_groups)}\t{group_differences}\t{rerun}\n")
sys.exit(1 if differences else 0)
PY
