#!/usr/bin/env bash
# class_timeline.sh <grades dir> [<bucket seconds>]
#
# Where a graded class's wall time went (issue 33), from the grading processes' own records: each
# student's run/units/*.json (tools/runner writes them as each unit ends, so a class cut short by a
# time limit still has them). A process is one runner run: a unit, or with --processes per-student a
# student's value groups, which share one process and one start (their records carry the same
# "started", and their seconds add up to the process's). Processes are of three kinds: values (value groups), sanitizer (grade.sanitizer.*) and
# performance (grade.performance, which needs every slot of its GPU). Prints
#   - per kind: processes, the first start and last end (seconds from the first process's start),
#     process-seconds, mean and max seconds;
#   - the processes running at each <bucket> (default 20 s) by kind: where a phase starved;
#   - the performance phase and the tail before it: the seconds between the last values or
#     sanitizer process's end and the first performance start, and the seconds before that end with
#     no more than a quarter of the busiest moment's processes running (the stragglers);
#   - where the process-seconds went, per kind: the processes' start-ups (the judges' CUDA start-up,
#     device_open_seconds, and the executors' sandbox, tool, context and library, executor_*_seconds:
#     the properties the runner and the judge record on the case that paid them), the cases' own
#     seconds less those, the processes' launches and exits (the runner's launch_seconds and
#     exit_seconds: before their first record, after their last), and the rest (the runner's own
#     work between cases, a process killed at a deadline);
#   - the cases' own seconds by what they did, per kind (fixtures/time_spent.hpp's case properties:
#     inputs and references, waiting for the GPU, downloads, comparisons, allocations, guards; and the
#     grading programs' staging and calls, grading/executor/remote_submission.hpp's exchange_seconds;
#     the rest is the checks' own work; a judge's CUDA start-up made inside an activity's timer, the
#     pristine copy of its first input, counts there too);
#   - the costliest cases of the class: each case's seconds (less its start-up) summed over its runs
#     (one a student, more where a case was attempted again), with its kind and how many runs, so a
#     family over its time names the shapes or inputs that cost it;
#   - the costliest submissions by kind: unit-seconds and grading processes (the runner's, restarts
#     included) per student, for each example of a synthetic class (students s<nnn>_<example>, as
#     scripts/grade_synthetic_class.sh names them) or each student of any other, so a family over its
#     time names the submissions that cost it (issue 33: ATAX's two examples that write out of bounds
#     faulted under memcheck in every case, each case a fresh process and tool start).
#   - the CUDA start-ups over time (issue 34: does a host of more GPUs start more processes a second?):
#     each judge's opening of its GPU (device_open_seconds) and each executor's start to its open GPU
#     (executor_device_seconds: its sandbox, a sanitizer's tool, its CUDA context), placed from the
#     start of the case that paid it (a unit's cases one after another from its process's first record;
#     an executor's after its judge's; value groups that share a process all from that process's start),
#     so within a case's seconds of where they were: per bucket, those completed a second, those in
#     progress on average and the mean seconds of those completed; then, over the buckets with at least
#     4 in progress, the range and median of the completions a second, and what the class's start-ups
#     take at that median rate. A rate that stays flat while more are in progress is a host that makes
#     them one at a time (on 2 and 4 H200s: ~3 a second, docs/grading.md, "Session of 2026-11-28 (sixth)").
# Times are the runner's wall clock; the builds (before the first process) are not in these records.
# Exit: 0 printed; 1 no unit record under <grades dir>, or a bucket that is not a positive number.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: class_timeline.sh <grades dir> [<bucket seconds>]" >&2; exit 1; }
exec python3 - "$1" "${2:-20}" "$(dirname "$0")" <<'PY'
import re
import sys

sys.path.insert(0, sys.argv[3])
from unit_records import ACTIVITY_KEYS, activity_seconds, cases, cuda_startups, number, startup_seconds, unit_records  # scripts/unit_records.py

grades = sys.argv[1]
try:
    bucket = float(sys.argv[2])
except ValueError:
    bucket = 0.0
if not bucket > 0:
    print(f"class_timeline.sh: the bucket must be a positive number of seconds, not '{sys.argv[2]}'")
    sys.exit(1)
processes = {}  # (student, kind, started) -> [start, end]
# kind -> [unit seconds, start-up seconds, case seconds less start-ups, launches, exits]
budget = {kind: [0.0, 0.0, 0.0, 0.0, 0.0] for kind in ("values", "sanitizer", "performance")}
# kind -> {activity key: seconds}: the cases' own seconds by what they did (fixtures/time_spent.hpp)
activities = {kind: dict.fromkeys(ACTIVITY_KEYS, 0.0) for kind in budget}
costliest = {}  # (kind, unit, case) -> [seconds less start-up, runs]
by_submission = {}  # (example or student, kind) -> [unit seconds, processes, students]
synthetic = re.compile(r"^s[0-9]{3}_(.+)$")
startups = []  # (start, end): a judge opening its GPU, an executor starting to its open GPU (cuda_startups)
for student, record in unit_records(grades):
    unit, started, seconds = record.get("unit"), number(record.get("started")), number(record.get("seconds"))
    if not isinstance(unit, str) or started is None or seconds is None:
        continue
    if unit == "grade.performance":
        kind = "performance"
    elif unit.startswith("grade.sanitizer."):
        kind = "sanitizer"
    else:
        kind = "values"
    # Value groups in one process (--processes per-student) share its start and run one after
    # another: their seconds add up to the process's (tools/runner, --units). A unit of its own is a
    # process of its own.
    key = (student, kind, started if kind == "values" else unit)
    span = processes.setdefault(key, [started, started])
    span[1] += seconds
    budget[kind][0] += seconds
    # The runner's launch and exit seconds of its processes (before their first record, after their
    # last; shared out over units that shared processes), where it records them.
    budget[kind][3] += number(record.get("launch_seconds")) or 0.0
    budget[kind][4] += number(record.get("exit_seconds")) or 0.0
    named = synthetic.match(student)
    submission = by_submission.setdefault((named.group(1) if named else student, kind), [0.0, {}, set()])
    submission[0] += seconds
    # Units that shared processes (a student's value groups) report the same processes: counted once.
    submission[1][(student, key[2])] = max(submission[1].get((student, key[2]), 0), int(number(record.get("processes")) or 0))
    submission[2].add(student)
    case_start = started + (number(record.get("launch_seconds")) or 0.0)
    for case in cases(record):
        startups.extend(cuda_startups(case, case_start))
        case_start += number(case.get("seconds")) or 0.0
        startup = startup_seconds(case) or 0.0
        own = max(0.0, (number(case.get("seconds")) or 0.0) - startup)
        budget[kind][1] += startup
        budget[kind][2] += own
        for key, value in activity_seconds(case).items():
            activities[kind][key] += value
        cost = costliest.setdefault((kind, unit, str(case.get("name", "?"))), [0.0, 0])
        cost[0] += own
        cost[1] += 1
if not processes:
    print(f"class_timeline.sh: no unit record under {grades}/*/run/units")
    sys.exit(1)

t0 = min(s for s, _ in processes.values())
spans = {kind: [] for kind in ("values", "sanitizer", "performance")}
for (_, kind, _), (s, e) in processes.items():
    spans[kind].append((s - t0, e - t0))
end = max(e for kind in spans for _, e in spans[kind])
students = len({student for student, _, _ in processes})
print(f"{len(processes)} grading processes of {students} students over {end:.0f} s "
      f"(from the first process's start; the builds came before)")
print(f"{'kind':<12} {'processes':>9} {'first start':>11} {'last end':>8} {'process-s':>9} {'mean s':>6} {'max s':>6}")
for kind, rows in spans.items():
    if not rows:
        print(f"{kind:<12} {0:>9}")
        continue
    lengths = [e - s for s, e in rows]
    print(f"{kind:<12} {len(rows):>9} {min(s for s, _ in rows):>11.0f} {max(e for _, e in rows):>8.0f} "
          f"{sum(lengths):>9.0f} {sum(lengths) / len(lengths):>6.1f} {max(lengths):>6.1f}")


def running(t, kinds):
    return sum(1 for kind in kinds for s, e in spans[kind] if s <= t < e)


print(f"\nprocesses running, every {bucket:.0f} s (values / sanitizer / performance):")
t = 0.0
while t < end:
    counts = [running(t, [kind]) for kind in spans]
    print(f"{t:>6.0f} s  {counts[0]:>3} {counts[1]:>3} {counts[2]:>3}")
    t += bucket

shared = spans["values"] + spans["sanitizer"]
if shared and spans["performance"]:
    shared_end = max(e for _, e in shared)
    perf_start = min(s for s, _ in spans["performance"])
    perf_end = max(e for _, e in spans["performance"])
    # The stragglers: before the shared processes' end, the seconds (in steps of 1 s) with no more
    # than a quarter of the busiest moment's processes running.
    steps = [float(x) for x in range(int(shared_end) + 1)]
    busiest = max(running(x, ["values", "sanitizer"]) for x in steps) if steps else 0
    thin = sum(1 for x in steps if running(x, ["values", "sanitizer"]) <= busiest / 4)
    print(f"\nthe values and sanitizer processes ended at {shared_end:.0f} s; the performance processes "
          f"ran from {perf_start:.0f} s to {perf_end:.0f} s ({len(spans['performance'])} of them, "
          f"{perf_end - perf_start:.0f} s); {max(0.0, perf_start - shared_end):.0f} s between; "
          f"{thin} s before {shared_end:.0f} s with at most a quarter of the busiest moment's "
          f"{busiest} processes running")

print("\nwhere the process-seconds went (start-ups: the judges' CUDA and the executors' start; cases: their "
      "own seconds less those; launches: each process's start to its first record, exec, loading, gtest; exits: "
      "its last record to its end; other: the runner between cases, restarts killed by a deadline):")
print(f"{'kind':<12} {'process-s':>9} {'start-ups':>9} {'cases':>9} {'launches':>9} {'exits':>9} {'other':>9}")
for kind, (total, startup, own, launches, exits) in budget.items():
    if total > 0:
        print(f"{kind:<12} {total:>9.1f} {startup:>9.1f} {own:>9.1f} {launches:>9.1f} {exits:>9.1f} "
              f"{max(0.0, total - startup - own - launches - exits):>9.1f}")
if any(sum(a.values()) > 0 for a in activities.values()):
    names = [key[: -len("_seconds")] for key in ACTIVITY_KEYS]
    print("\nthe cases' own seconds by what they did (fixtures/time_spent.hpp; staging: waits for the grader's "
          "own device work before a call; calls: the exchanges with the submission's process; the rest: "
          "checks of their own):")
    print(f"{'kind':<12} {'cases':>9} " + " ".join(f"{n:>9}" for n in names) + f" {'rest':>9}")
    for kind, (total, startup, own, _, _) in budget.items():
        if total > 0:
            parts = [activities[kind][key] for key in ACTIVITY_KEYS]
            print(f"{kind:<12} {own:>9.1f} " + " ".join(f"{v:>9.1f}" for v in parts) +
                  f" {max(0.0, own - sum(parts)):>9.1f}")
if startups:
    # Each bucket's completions, and its start-ups in progress on average (the seconds of each
    # start-up inside the bucket, over the bucket).
    rows = []
    t = 0.0
    while t < end:
        done = [e - s for s, e in startups if t <= e - t0 < t + bucket]
        busy = sum(max(0.0, min(e - t0, t + bucket) - max(s - t0, t)) for s, e in startups) / bucket
        rows.append((t, len(done) / bucket, busy, sum(done) / len(done) if done else 0.0))
        t += bucket
    print(f"\nCUDA start-ups (a judge opening its GPU, an executor starting to its open GPU), every {bucket:.0f} s: "
          "completed a second, in progress on average, mean seconds of those completed:")
    for t, rate, busy, mean in rows:
        print(f"{t:>6.0f} s  {rate:>6.2f} {busy:>6.1f} {mean:>6.2f}")
    total = len(startups)
    mean_all = sum(e - s for s, e in startups) / total
    crowded = [(rate, busy) for _, rate, busy, _ in rows if busy >= 4]
    line = f"{total} start-ups, {mean_all:.2f} s each on average"
    if crowded:
        rates = sorted(rate for rate, _ in crowded)
        median = rates[len(rates) // 2] if len(rates) % 2 else (rates[len(rates) // 2 - 1] + rates[len(rates) // 2]) / 2
        line += (f"; in the {len(crowded)} bucket{'' if len(crowded) == 1 else 's'} with 4 or more in progress "
                 f"({min(b for _, b in crowded):.1f}-{max(b for _, b in crowded):.1f}), "
                 f"{rates[0]:.2f}-{rates[-1]:.2f} completed a second (median {median:.2f}, one every "
                 f"{1 / median:.2f} s)")
        if median > 0:
            line += f"; at that rate the class's {total} take {total / median:.0f} s"
    else:
        line += "; no bucket had 4 or more in progress"
    print(line)
if costliest:
    print("\nthe costliest cases (seconds less start-ups, summed over their runs: a student's, or its attempts):")
    print(f"{'seconds':>8} {'mean s':>7} {'runs':>8}  kind        case")
    for (kind, unit, case), (total, count) in sorted(costliest.items(), key=lambda kv: -kv[1][0])[:12]:
        print(f"{total:>8.1f} {total / count:>7.2f} {count:>8}  {kind:<11} {unit} {case}")
if by_submission:
    print("\nthe costliest submissions by kind (an example's students in a synthetic class, else each student; "
          "unit-seconds and grading processes, restarts included):")
    print(f"{'seconds':>8} {'s each':>7} {'processes each':>14} {'students':>8}  kind        submission")
    for (name, kind), (total, shared, who) in sorted(by_submission.items(), key=lambda kv: -kv[1][0])[:12]:
        count = sum(shared.values())
        print(f"{total:>8.1f} {total / len(who):>7.1f} {count / len(who):>14.1f} {len(who):>8}  {kind:<11} {name}")
PY
