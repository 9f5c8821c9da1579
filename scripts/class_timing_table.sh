#!/usr/bin/env bash
# class_timing_table.sh <dir>
#
# The per-family table of the classes' throughput targets as markdown: a class of 100 in at most 10
# minutes on one H100 (issue 33) and in at most 3 on four (issue 34; a row's GPU field says "4× <name>",
# class_timing.sh), other GPU counts with no target of their own ("no target"). From the rows
# class_timing.sh wrote under <dir>/<family>/row.tsv (the --out of scripts/grade_synthetic_class.sh;
# families graded in separate runs can be gathered under one folder).
# Every family with a grading/families/<family>.cmake gets a line: one not graded says so, so a table
# of some families cannot pass for one of all. Exit: 0 printed; 1 no row found.
set -uo pipefail
if [ $# -ne 1 ] || [ ! -d "$1" ]; then echo "usage: class_timing_table.sh <dir>" >&2; exit 1; fi
root=$(cd "$(dirname "$0")/.." && pwd)
exec python3 - "$1" "$root/grading/families" <<'PY'
import glob, os, sys

folder, families_dir = sys.argv[1], sys.argv[2]
# The targets, seconds for a class of 100 by the number of GPUs it was graded on: issue 33's 10 minutes
# on one, issue 34's 3 minutes on four.
BUDGET_S = {1: 600, 4: 180}


def gpu_count(gpu):
    """The number in a row's "<n>× <name>" GPU field; 1 for a bare name (rows before the count, one GPU)."""
    head = gpu.split("× ", 1)[0]
    return int(head) if "× " in gpu and head.isdigit() else 1


def within(gpu, wall):
    budget = BUDGET_S.get(gpu_count(gpu))
    if budget is None:
        return "no target"
    return "yes" if float(wall) <= budget else "**no**"


families = sorted(os.path.basename(p)[: -len(".cmake")] for p in glob.glob(os.path.join(families_dir, "*.cmake")))
rows = {}
for path in glob.glob(os.path.join(folder, "*", "row.tsv")):
    with open(path, encoding="utf-8") as f:
        fields = f.readline().rstrip("\n").split("\t")
    if len(fields) >= 11:
        rows[fields[0]] = fields
if not rows:
    print(f"class_timing_table.sh: no row.tsv under {folder}/<family>/")
    sys.exit(1)

gpus = sorted({r[1] for r in rows.values()})
print("| family | students | wall s | within target | grading s (after builds) | units s per student, mean / max "
      "| build s per student, mean / max | verdicts | as expected | hanging, crashing |")
print("|---|---|---|---|---|---|---|---|---|---|")
for family in families + sorted(set(rows) - set(families)):
    r = rows.get(family)
    if r is None:
        print(f"| {family} | not graded | | | | | | | | |")
        continue
    _, gpu, students, wall, grading, unit_mean, unit_max, build_mean, build_max, verdicts, composition = r[:11]
    matched = r[11] if len(r) > 11 else "-"  # rows written before the check have no such field
    # The hanging and crashing students, as composition says them ("...; hanging: x; crashing: y").
    picked = composition.split("; ", 1)[1] if "; " in composition else composition
    gpu_note = "" if len(gpus) == 1 else f" ({gpu})"
    print(f"| {family}{gpu_note} | {students} | {wall} | {within(gpu, wall)} | {grading} | {unit_mean} / {unit_max} "
          f"| {build_mean} / {build_max} | {verdicts} | {matched} | {picked} |")
print()
print("GPU: " + ("; ".join(gpus)) + ". Within target: a class of 100 in 10 minutes on one GPU, 3 minutes on four"
      " (a class of another size is held to the same). Units s: the sum of a student's grading units' run times (class.csv's seconds),"
      " which run beside other students' units, so they add up to more than the wall time. As expected: students"
      " graded as tests/submissions/expected.tsv says their example must be.")
PY
