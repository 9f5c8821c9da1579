"""The runner's unit records of graded students, as the class scripts read them.

scripts/class_timing.sh (per student) and scripts/class_timeline.sh (per kind of process) both read
<grades>/<student>/run/units/*.json (tools/runner's unit reports) and both need a case's start-up:
the judge's CUDA start-up, which the runner keeps on the case that opened its GPU, and the
executor's start, which the judge records on the case that started one. One reading, here, so a new
start-up property is added once.
"""
import glob
import json
import os

# The properties that hold a case's start-up seconds (tools/runner/case_records.cpp: device_open;
# grading/submission_library.cpp: the executor's sandbox, tool and context, library).
STARTUP_KEYS = ("device_open_seconds", "executor_spawn_seconds", "executor_device_seconds",
                "executor_load_seconds")


def number(text):
    """The float a record's field holds, or None."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def unit_records(grades, student=None):
    """(student, record) for each readable unit record under <grades>/<student>/run/units/ (every
    student's where none is named)."""
    folder = "*" if student is None else glob.escape(student)
    for path in sorted(glob.glob(os.path.join(glob.escape(grades), folder, "run", "units", "*.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(record, dict):
            yield path.split(os.sep)[-4], record


def cases(record):
    """A unit record's cases (dicts), whatever the record holds."""
    listed = record.get("cases")
    return [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []


# Where a case's own seconds went, as fixtures/time_spent.hpp records them (exclusive kinds), and, in
# a grading program, its waits for its own staging before each call into the submission's process and
# the exchanges with it (grading/executor/remote_submission.hpp, exchange_seconds: no time_spent timer
# is running around a call, so they are exclusive of those kinds too).
ACTIVITY_KEYS = ("input_seconds", "gpu_wait_seconds", "download_seconds", "compare_seconds",
                 "allocate_seconds", "guards_seconds", "staging_seconds", "calls_seconds")


def activity_seconds(case):
    """{activity key: seconds} of the time_spent properties a case recorded."""
    props = properties(case)
    found = {k: number(props.get(k)) for k in ACTIVITY_KEYS}
    return {k: v for k, v in found.items() if v is not None}


def properties(case):
    """A case's properties (a dict), whatever the record holds."""
    props = case.get("properties")
    return props if isinstance(props, dict) else {}


def cuda_startups(case, start):
    """The CUDA start-ups a case paid, as (begin, end) from `start`, its own start: the judge opening its
    GPU (device_open_seconds) first, then its executor's start to its open GPU (after its spawn:
    executor_device_seconds, which holds a sanitizer's tool start and the executor's context)."""
    props = properties(case)
    spans = []
    opened = number(props.get("device_open_seconds")) or 0.0
    if opened > 0:
        spans.append((start, start + opened))
    executor = number(props.get("executor_device_seconds")) or 0.0
    if executor > 0:
        begin = start + opened + (number(props.get("executor_spawn_seconds")) or 0.0)
        spans.append((begin, begin + executor))
    return spans


def startup_seconds(case):
    """The start-up seconds a case recorded, or None where it recorded none."""
    props = properties(case)
    values = [number(props.get(k)) for k in STARTUP_KEYS]
    values = [v for v in values if v is not None]
    return sum(values) if values else None
