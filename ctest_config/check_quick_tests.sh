#!/usr/bin/env bash
# check_quick_tests.sh <build dir> <CMakePresets.json>
#
# gpu-quick runs each program's quick units in one process, or in parts (<prefix>.quick.<i>of<n>,
# KCONFORM_QUICK_CASES_PER_PROCESS; label quick, kconform_add_gpu_suite), and the full run runs the same
# units one test per unit and shard. That is only right if
#   - the presets keep the two apart: gpu and gpu-shared leave label quick out (else the full run
#     runs those units twice), gpu-quick leaves label gpu out and keeps quick (else it runs them
#     twice, or not at all), gpu-quick-per-unit (the comparison) leaves quick out;
#   - each program's quick tests between them run exactly the units gpu-quick-per-unit runs one test
#     each, no unit in two of its parts, all parts under one report prefix (its
#     per-unit tests' units as that preset's filters select them: no Large unit, whose cases are all
#     above the quick cost), under the same report names (--name-prefix: <family>.<kind>.), in no
#     RUN_SERIAL test, labelled quick and not gpu;
#   - every program gpu-quick-per-unit runs has a quick test.
# Fails naming each difference. Exit: 0 all hold; 1 not (or ctest could not list).
set -uo pipefail
build=$1 presets=$2
listing=$(mktemp) || exit 1
trap 'rm -f "$listing"' EXIT
ctest --test-dir "$build" --show-only=json-v1 >"$listing" 2>"$listing.err" ||
  { tail -5 "$listing.err"; rm -f "$listing.err"; echo "FAILED: ctest could not list $build"; exit 1; }
rm -f "$listing.err"
python3 - "$presets" "$listing" <<'PY'
import json, re, sys

presets = {p["name"]: p for p in json.load(open(sys.argv[1], encoding="utf-8"))["testPresets"]}
listing = json.load(open(sys.argv[2], encoding="utf-8"))
wrong = []


def filt(name, kind, what):
    """A preset's label or name regex (include or exclude), following inherits."""
    p = presets.get(name, {})
    while p:
        value = p.get("filter", {}).get(kind, {}).get(what)
        if value is not None:
            return value
        parent = p.get("inherits")
        p = presets.get(parent if isinstance(parent, str) else (parent or [None])[0], {})
    return None


def any_label(labels, regex):
    return regex is not None and any(re.search(regex, label) for label in labels)


for preset, label, should in (("gpu", "quick", True), ("gpu-shared", "quick", True), ("gpu-quick", "gpu", True),
                              ("gpu-quick", "quick", False), ("gpu-quick-per-unit", "quick", True)):
    if any_label([label], filt(preset, "exclude", "label")) != should:
        wrong.append(f"preset {preset} {'does not leave out' if should else 'leaves out'} label {label}")


def props(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def arg(command, flag):
    return command[command.index(flag) + 1] if flag in command else None


per_unit = {}   # exe -> {unit: prefix}
quick = {}      # exe -> (test names, units, prefix): its quick test, or its parts between them
label_out = filt("gpu-quick-per-unit", "exclude", "label")
name_out = filt("gpu-quick-per-unit", "exclude", "name")
for test in listing.get("tests", []):
    name, command, p = test["name"], test.get("command", []), props(test)
    labels = p.get("LABELS", [])
    exe = arg(command, "--exe")
    if "quick" in labels:
        if "gpu" in labels or p.get("RUN_SERIAL"):
            wrong.append(f"{name}: a quick test labelled gpu or RUN_SERIAL")
        units = arg(command, "--units")
        if exe is None or units is None or arg(command, "--name-prefix") is None:
            wrong.append(f"{name}: a quick test without --exe, --units or --name-prefix")
            continue
        names, had, prefix = quick.setdefault(exe, ([], set(), arg(command, "--name-prefix")))
        mine = units.split(",")
        for unit in sorted({u for u in mine if mine.count(u) > 1}):
            wrong.append(f"{name}: runs unit {unit} more than once")
        if "" in mine:
            wrong.append(f"{name}: an empty unit name in --units {units!r}")
        for unit in sorted(set(mine) & had):
            wrong.append(f"{name}: runs unit {unit}, which another quick test of {exe} runs too")
        if arg(command, "--name-prefix") != prefix:
            wrong.append(f"{name}: reports under {arg(command, '--name-prefix')}, another part of {exe} under {prefix}")
        names.append(name)
        had.update(mine)
        continue
    unit = arg(command, "--unit")
    if "gpu" not in labels or unit is None or exe is None or p.get("RUN_SERIAL"):
        continue
    if any_label(labels, label_out) or (name_out is not None and re.search(name_out, name)):
        continue
    prefix = name[: name.index(unit)] if unit in name else None
    per_unit.setdefault(exe, {})[unit] = prefix

for exe, units in sorted(per_unit.items()):
    if exe not in quick:
        wrong.append(f"{exe}: gpu-quick-per-unit runs {len(units)} unit(s) of it, and no quick test does")
        continue
    names, quick_units, prefix = quick[exe]
    name = " + ".join(sorted(names))
    for unit in sorted(set(units) - quick_units):
        wrong.append(f"{name}: misses unit {unit}")
    for unit in sorted(quick_units - set(units)):
        wrong.append(f"{name}: runs unit {unit}, which gpu-quick-per-unit does not")
    for unit, unit_prefix in sorted(units.items()):
        if unit_prefix is not None and unit_prefix != prefix:
            wrong.append(f"{name}: reports {unit} as {prefix}{unit}, its own test as {unit_prefix}{unit}")
for exe in sorted(set(quick) - set(per_unit)):
    wrong.append(f"{' + '.join(quick[exe][0])}: a quick test of a program gpu-quick-per-unit runs no unit of")
if wrong:
    print("\n".join(wrong))
    print(f"FAILED: {len(wrong)} problem(s) with the quick tests")
    sys.exit(1)
print(f"PASSED: {sum(len(q[0]) for q in quick.values())} quick tests of {len(quick)} programs, each program's running exactly its "
      f"{sum(len(u) for u in per_unit.values())} quick units between them; the presets keep them apart")
PY
