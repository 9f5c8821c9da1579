#!/usr/bin/env bash
# class_timing.sh <family> <grades dir> <wall seconds> <grade.log> <row file> [<composition>]
#
# How long a graded class took (issue 33, scripts/grade_synthetic_class.sh): from grade.sh --batch's
# class.csv and each student's build.json, prints one line per student — score, verdict, the seconds
# of its grading units (class.csv's seconds: the sum of its CTest units' run times, which run beside
# other students' units, so they add up to more than the wall time), how many of those seconds its
# processes took to start (the judges' CUDA start-up, device_open_seconds, which the runner keeps on
# the case that opened the GPU, and the executors', the executor_*_seconds properties of each unit's
# first case: sandbox, tool and CUDA context, library; "-" where no unit recorded them) and of its
# build (build.json's) —
# and whether the student was graded as its example must be (tests/submissions/expected.tsv, the row of
# the example the student is a copy of: s<NNN>_<example>; the score within the row's range, the verdict
# naming the row's word, as check_examples.sh asks), so a throughput change that moves a verdict shows
# in the class's own run. Then one summary line: students, the wall time (and grade.sh's own "ran in"
# for the grading phase, the builds before it), mean and max per-student seconds, the verdicts counted
# and how many were as expected. Writes the same as one tab-separated row (the table's:
# class_timing_table.sh) to <row file>:
#   family, gpu, students, wall s, grading s, unit s mean, unit s max, build s mean, build s max,
#   verdicts, composition, as expected ("<n> of <m>", and how many had no row)
# Exit: 0 written; 1 no class.csv or no student in it.
set -uo pipefail
[ $# -ge 5 ] || { echo "usage: class_timing.sh <family> <grades dir> <wall s> <grade.log> <row file> [<composition>]" >&2; exit 1; }
# The GPUs the class was graded on: the first one's name, and "<n>× " before it where grade.sh's
# programs saw n > 1 (ctest_config/visible_gpus.sh honours CUDA_VISIBLE_DEVICES, so a family pinned to
# one GPU, --side-by-side, is one), which class_timing_table.sh reads for the target it is held to.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
gpus=$("$(dirname "$0")/../ctest_config/visible_gpus.sh" 2>/dev/null)
[ -n "$gpu" ] && [ "${gpus:-1}" -gt 1 ] 2>/dev/null && gpu="${gpus}× $gpu"
expected=$(cd "$(dirname "$0")/.." && pwd)/tests/submissions/expected.tsv
exec python3 - "$1" "$2" "$3" "$4" "$5" "${6:-}" "${gpu:-no GPU found}" "$expected" "$(dirname "$0")" <<'PY'
import collections, csv, json, os, re, statistics, sys

family, grades, wall, log, row_file, composition, gpu, expected_tsv, scripts = sys.argv[1:10]
sys.path.insert(0, scripts)
from unit_records import cases, number, startup_seconds as case_startup_seconds, unit_records  # scripts/unit_records.py

# expected.tsv: family, example, needs, verdict, min, max (tab-separated; # comments).
expected = {}
try:
    with open(expected_tsv, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if line.startswith("#") or len(fields) < 6 or fields[0] != family:
                continue
            expected[fields[1]] = (fields[3], float(fields[4]), float(fields[5]))
except (OSError, ValueError):
    pass


def as_expected(student, score, verdict):
    """True or False against the example's row; None where the student is no copy of a row's example."""
    m = re.match(r"^s\d+_(.+)$", student)
    row = expected.get(m.group(1) if m else student)
    if row is None:
        return None
    word, low, high = row
    value = number(score)
    said = [v.strip() for v in verdict.split(",")]
    named = all(kind in said for kind in word.split("+"))  # a row may name several kinds, joined by +
    return value is not None and low <= value <= high and named
try:
    with open(os.path.join(grades, "class.csv"), newline="", encoding="utf-8") as f:
        students = list(csv.DictReader(f))
except OSError as e:
    print(f"class_timing.sh: {e}")
    sys.exit(1)
if not students:
    print(f"class_timing.sh: no student in {grades}/class.csv")
    sys.exit(1)


def build_seconds(student):
    try:
        with open(os.path.join(grades, student, "build.json"), encoding="utf-8") as f:
            return number(json.load(f).get("seconds"))
    except (OSError, ValueError):
        return None


def startup_seconds(student):
    """The student's processes' start-ups (judges' and executors'), summed; None where none was recorded."""
    found = [case_startup_seconds(c) for _, record in unit_records(grades, student) for c in cases(record)]
    found = [x for x in found if x is not None]
    return sum(found) if found else None


def shown(x):
    return "-" if x is None else f"{x:.1f}"


# grade.sh prints "ran in <s> s" once its CTest project (the grading, after the builds) is done.
grading = None
try:
    with open(log, encoding="utf-8", errors="replace") as f:
        found = re.findall(r"^ran in (\d+) s$", f.read(), flags=re.M)
        grading = number(found[-1]) if found else None
except OSError:
    pass

print(f"{'student':<36} {'score':>7} {'units s':>8} {'start-up s':>10} {'build s':>8}  verdict")
units, startups, builds, verdicts = [], [], [], collections.Counter()
matched, unmatched, without_row = 0, [], 0
for s in students:
    name = s.get("student", "?")
    unit_s, start_s, build_s = number(s.get("seconds")), startup_seconds(name), build_seconds(name)
    verdict = s.get("verdict", "") or "?"
    judged = as_expected(name, s.get("score"), verdict)
    mark = {True: "", False: "  NOT AS EXPECTED", None: "  (no expected.tsv row)"}[judged]
    matched += judged is True
    without_row += judged is None
    if judged is False:
        unmatched.append(name)
    print(f"{name:<36} {s.get('score', ''):>7} {shown(unit_s):>8} {shown(start_s):>10} {shown(build_s):>8}  {verdict}{mark}")
    if unit_s is not None:
        units.append(unit_s)
    if start_s is not None:
        startups.append(start_s)
    if build_s is not None:
        builds.append(build_s)
    verdicts[verdict] += 1


def mean_max(values):
    return (statistics.mean(values), max(values)) if values else (None, None)


unit_mean, unit_max = mean_max(units)
startup_mean, _ = mean_max(startups)
build_mean, build_max = mean_max(builds)
counted = "; ".join(f"{v} {n}" for v, n in sorted(verdicts.items(), key=lambda kv: (-kv[1], kv[0])))
judged_count = len(students) - without_row
as_expected_text = f"{matched} of {judged_count}" + (f" ({without_row} without a row)" if without_row else "")
print(f"{family}: {len(students)} students in {float(wall):.1f} s wall (grading {shown(grading)} s after the builds) "
      f"on {gpu}; per student: units mean {shown(unit_mean)} s, max {shown(unit_max)} s "
      f"(processes' start-up mean {shown(startup_mean)} s); "
      f"build mean {shown(build_mean)} s, max {shown(build_max)} s; verdicts: {counted}; "
      f"as expected: {as_expected_text}")
if unmatched:
    print(f"{family}: not as expected (tests/submissions/expected.tsv): {', '.join(unmatched)}")
if composition:
    print(f"{family}: {composition}")
fields = [family, gpu, str(len(students)), f"{float(wall):.1f}", shown(grading), shown(unit_mean), shown(unit_max),
          shown(build_mean), shown(build_max), counted, composition, as_expected_text]
with open(row_file, "w", encoding="utf-8") as f:
    f.write("\t".join(x.replace("\t", " ").replace("\n", " ") for x in fields) + "\n")
PY
