#!/usr/bin/env bash
# check_quick_tests.sh <build dir> <CMakePresets.json>
#
# gpu-quick runs each program's quick units in one process, or in parts (<prefix>.quick.<i>of<n>,
# KCONFORM_QUICK_CASES_PER_PROCESS; a unit larger than a part in contiguous slices <unit>@<i>/<n>;
# label quick, kconform_add_gpu_suite), and the full run runs the same
# units one test per unit and shard, or small ones several to a test (packs, KCONFORM_PACK_SECONDS).
# That is only right if
#   - the presets keep the two apart: gpu and gpu-shared leave label quick out (else the full run
#     runs those units twice), gpu-quick leaves label gpu out and keeps quick (else it runs them
#     twice, or not at all), gpu-quick-per-unit (the comparison) leaves quick out;
#   - each program's quick tests between them run exactly the units gpu-quick-per-unit runs one test
#     each, no unit (or slice) in two of its parts, a sliced unit in all n of one cut's slices, all parts
#     under one report prefix (its
#     per-unit tests' units as that preset's filters select them: no Large unit, whose cases are all
#     above the quick cost), under the same report names (--name-prefix: <family>.<kind>.), in no
#     RUN_SERIAL test, labelled quick and not gpu;
#   - every program gpu-quick-per-unit runs has a quick test.
# Fails naming each difference. Exit: 0 all hold; 1 not (or ctest could not list).
# A third argument, a file of `ctest --show-only=json-v1` output, is checked instead of the build's
# listing (tests/scripts/check_quick_tests_test.sh feeds it doctored listings).
set -uo pipefail
build=$1 presets=$2 given=${3:-}
listing=$(mktemp) || exit 1
trap 'rm -f "$listing"' EXIT
if [ -n "$given" ]; then
  cp "$given" "$listing" || exit 1
else
  ctest --test-dir "$build" --show-only=json-v1 >"$listing" 2>"$listing.err" ||
    { tail -5 "$listing.err"; rm -f "$listing.err"; echo "FAILED: ctest could not list $build"; exit 1; }
  rm -f "$listing.err"
fi
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
        names, had, prefix = quick.setdefault(exe, ([], {}, arg(command, "--name-prefix")))
        for entry in units.split(","):
            # <unit>, or <unit>@<i>/<n>: the i-th of n slices of it (tools/runner/unit_choice.hpp);
            # compared as numbers, so A@01/2 is A@1/2 and A@1/1 is A.
            m = re.fullmatch(r"(.+)@([0-9]+)/([0-9]+)", entry)
            unit, i, n = (m.group(1), int(m.group(2)), int(m.group(3))) if m else (entry, 1, 1)
            if unit == "" or not 1 <= i <= n:
                wrong.append(f"{name}: an empty unit name or a bad slice in --units {units!r}")
                continue
            if (i, n) in had.get(unit, {}):
                other = had[unit][(i, n)]
                wrong.append(f"{name}: runs {entry}, which " +
                             ("it runs already" if other == name else f"{other}, another quick test of {exe}, runs too"))
            had.setdefault(unit, {})[(i, n)] = name
        if arg(command, "--name-prefix") != prefix:
            wrong.append(f"{name}: reports under {arg(command, '--name-prefix')}, another part of {exe} under {prefix}")
        names.append(name)
        continue
    unit = arg(command, "--unit")
    packed = arg(command, "--units")  # a pack (KCONFORM_PACK_SECONDS): several whole units in one test
    if "gpu" not in labels or (unit is None and packed is None) or exe is None or p.get("RUN_SERIAL"):
        continue
    if any_label(labels, label_out) or (name_out is not None and re.search(name_out, name)):
        continue
    if packed is not None:
        for entry in packed.split(","):
            per_unit.setdefault(exe, {})[entry] = arg(command, "--name-prefix")
        continue
    prefix = name[: name.index(unit)] if unit in name else None
    per_unit.setdefault(exe, {})[unit] = prefix

for exe, units in sorted(per_unit.items()):
    if exe not in quick:
        wrong.append(f"{exe}: gpu-quick-per-unit runs {len(units)} unit(s) of it, and no quick test does")
        continue
    names, slices_of, prefix = quick[exe]
    name = " + ".join(sorted(names))
    # A unit is run once when its quick tests run it whole, or each of its n slices of one cut, and no more.
    quick_units = set()
    for unit, taken in sorted(slices_of.items()):
        cuts = {n for (_, n) in taken}
        if len(cuts) > 1:
            wrong.append(f"{name}: cuts unit {unit} in {' and in '.join(str(n) for n in sorted(cuts))} slices: cases run twice or not at all")
            continue
        n = cuts.pop()
        missing = sorted(set(range(1, n + 1)) - {i for (i, _) in taken})
        if missing:
            wrong.append(f"{name}: runs unit {unit} in {n} slices but not slice(s) {', '.join(map(str, missing))}")
            continue
        quick_units.add(unit)
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
