#!/usr/bin/env bash
# runner_isolation_test.sh <kconform_runner> <runner_probe_tests> <scratch dir> <runner_retry_probe_tests>
#
# Proves that a case which hangs, crashes, aborts or exits costs that case alone: runs the runner over
# the probe program (runner_probe_test.cu) and checks every case's verdict in the JUnit it writes.
#   Probe.PassesBefore / PassesAfter   passed (the faults around them do not spill over)
#   Probe.HostNeverReturns             failed: killed at the per-case deadline
#   Probe.Segfaults / Aborts           failed: signal 11 / 6
#   Probe.ExitsZero                    failed: exit(0) mid-case is never a pass
#   ProbeGpu.KernelNeverFinishes       failed: hang, ended by the in-process watchdog   (GPU only)
#   ProbeGpu.KernelTraps               failed: sticky error; the process restarts         (GPU only)
#   ProbeGpu.RunsAfterHang/AfterTrap   passed, in fresh processes                         (GPU only)
# Without a GPU the ProbeGpu cases must be skipped (and the host ones still checked).
# Then: several units in shared processes are reported apart, a hang streak stopping its own unit
# only (--units), a unit's slice its share of the cases; a shard runs its slice of the cases and no other; a program that exits 0 before its first
# case leaves every case "not run", failed; a process retried for device memory takes its reports
# with it (runner_retry_probe_test.cpp); a case that failed out of device memory on every run is listed
# for the grader's run again alone (KCONFORM_MEMORY_STARVED_FILE).
set -u
runner=$1 probe=$2 dir=$3 retry_probe=$4
rm -rf "$dir"
mkdir -p "$dir"
unset KCONFORM_REPORT_DIR KCONFORM_GTEST_FILTER
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# verdict <xml> <case name> -> "passed|failed|skipped" and the first line of its message
verdict() { sed -n "/name=\"$2\"/,/<\/testcase>/p" "$1" | tr '\n' ' '; }
expect() {  # expect <xml> <case> <status> [message fragment]
  local line
  line=$(verdict "$1" "$2")
  case "$line" in *"status=\"$3\""*) ;; *) fail "$2: expected $3, got: ${line:-no record}"; return ;; esac
  if [ -n "${4:-}" ]; then
    case "$line" in *"$4"*) ;; *) fail "$2: expected the message to say '$4': $line"; return ;; esac
  fi
  echo "ok: $2 $3${4:+ ($4)}"
}

# The GPU probes' CUDA start-up (up to 15 s on a loaded 4-GPU host) happens in KernelNeverFinishes, a
# later case of its process: the start-up allowance covers it (fixtures/case_progress.hpp, O and R), and
# the in-process watchdog (6 s after the launch) ends the hang before the runner's 8 s. The watchdog
# also waits for the trap's fault: with 2 s it called KernelTraps a hang once, on a 2-H200 host at the
# start of the shared phase (16 processes opening the GPU), where the driver's report of the fault
# came later than that; the suite's own deadline is 60 s.
KCONFORM_CASE_TIMEOUT_S=8 KCONFORM_KERNEL_DEADLINE_S=6 "$runner" run --exe "$probe" --name runner.probe --report-dir "$dir"
status=$?
xml="$dir/units/runner.probe.xml"
[ $status -eq 1 ] || fail "the runner exited $status over failing cases (expected 1)"
[ -f "$xml" ] || { echo "FAILED: no JUnit written at $xml"; exit 1; }
expect "$xml" PassesBefore passed
expect "$xml" HostNeverReturns failed "did not finish within 8 s"
expect "$xml" Segfaults failed "signal 11"
expect "$xml" Aborts failed "signal 6"
expect "$xml" ExitsZero failed "exited with status 0"
expect "$xml" PassesAfter passed
if nvidia-smi -L >/dev/null 2>&1; then
  expect "$xml" KernelNeverFinishes failed "hang:"
  expect "$xml" RunsAfterHang passed
  expect "$xml" KernelTraps failed "cudaErrorLaunchFailure"
  expect "$xml" RunsAfterTrap passed
else
  for c in KernelNeverFinishes RunsAfterHang KernelTraps RunsAfterTrap; do expect "$xml" $c skipped; done
fi
processes=$(grep -o 'name="processes" value="[0-9]*' "$xml" | grep -o '[0-9]*$')
echo "processes: $processes"
[ "${processes:-0}" -ge 5 ] || fail "expected at least 5 processes (one more after each fatal case), got ${processes:-none}"

# A shard is a contiguous slice of the unit's cases: 2/3 of the probe's 10 cases is cases 4-6.
"$runner" run --exe "$probe" --name runner.shard --report-dir "$dir" --shard 2/3
xml="$dir/units/runner.shard.xml"
[ "$(grep -c '<testcase ' "$xml")" -eq 3 ] || fail "shard 2/3 of 10 cases should run 3, ran $(grep -c '<testcase ' "$xml")"
expect "$xml" Aborts failed "signal 6"
expect "$xml" ExitsZero failed "exited with status 0"
expect "$xml" PassesAfter passed

KCONFORM_PROBE_EXIT_AT_START=1 "$runner" run --exe "$probe" --name runner.early-exit --report-dir "$dir" --filter 'Probe.Passes*'
status=$?
xml="$dir/units/runner.early-exit.xml"
[ $status -eq 1 ] || fail "a program that exits 0 before its cases made the runner exit $status (expected 1)"
expect "$xml" PassesBefore failed "not run"
expect "$xml" PassesAfter failed "not run"

# Several units in shared processes (--units, grading's value groups in one process per student): each
# unit reported apart, with its own cases; a hang streak stops its own unit's cases, not the next unit's.
# (KCONFORM_KERNEL_DEADLINE_S=1: a GPU hang, a fresh process's first case, ends by the program's own
# watchdog, 1 s after its launch, before the runner's 2 s plus the default start-up allowance; a 1 s
# allowance was too little for the CUDA start-up on a loaded 4-GPU host.)
KCONFORM_CASE_TIMEOUT_S=2 KCONFORM_KERNEL_DEADLINE_S=1 KCONFORM_HANG_STREAK=1 \
  "$runner" run --exe "$probe" --name runner.multi --units Probe,ProbeGpu --name-prefix runner.multi. --report-dir "$dir"
probe_xml="$dir/units/runner.multi.Probe.xml" gpu_xml="$dir/units/runner.multi.ProbeGpu.xml"
[ -f "$probe_xml" ] && [ -f "$gpu_xml" ] || fail "--units wrote no report per unit: $(ls "$dir/units" | grep multi | tr '\n' ' ')"
[ ! -f "$dir/units/runner.multi.xml" ] || fail "--units also wrote a report of the whole"
# The processes they shared counted once, on the first unit (column 6 of each unit's statistics).
shared=$(cut -f6 "$dir/units/runner.multi.Probe.tsv") second=$(cut -f6 "$dir/units/runner.multi.ProbeGpu.tsv")
[ "${shared:-0}" -ge 1 ] && [ "$second" = 0 ] || fail "--units counted the shared processes as $shared and $second, not once (N and 0)"
[ "$(grep -c '<testcase ' "$probe_xml")" -eq 6 ] || fail "unit Probe's report holds $(grep -c '<testcase ' "$probe_xml") cases, not its 6"
[ "$(grep -c '<testcase ' "$gpu_xml")" -eq 4 ] || fail "unit ProbeGpu's report holds $(grep -c '<testcase ' "$gpu_xml") cases, not its 4"
expect "$probe_xml" PassesBefore passed
expect "$probe_xml" HostNeverReturns failed "did not finish within 2 s"
expect "$probe_xml" Segfaults failed "KCONFORM_HANG_STREAK=1"
expect "$probe_xml" PassesAfter failed "KCONFORM_HANG_STREAK=1"
if nvidia-smi -L >/dev/null 2>&1; then
  expect "$gpu_xml" KernelNeverFinishes failed "hang:"
  expect "$gpu_xml" RunsAfterHang failed "KCONFORM_HANG_STREAK=1"
else
  for c in KernelNeverFinishes RunsAfterHang KernelTraps RunsAfterTrap; do expect "$gpu_xml" $c skipped; done
fi

# A unit's slice (--units <unit>@<i>/<n>, gpu-quick's parts): its contiguous share of the unit's
# cases (Probe's 6 in 2: Aborts, ExitsZero, PassesAfter the second), reported as
# <prefix><unit>.<i>of<n>, with no report of the whole unit; a slice that cannot be cut is refused.
"$runner" run --exe "$probe" --name runner.sliced --units 'Probe@2/2' --name-prefix runner.sliced. --report-dir "$dir"
xml="$dir/units/runner.sliced.Probe.2of2.xml"
if [ -f "$xml" ]; then
  [ "$(grep -c '<testcase ' "$xml")" -eq 3 ] || fail "slice 2/2 of Probe's 6 cases should run 3, ran $(grep -c '<testcase ' "$xml")"
  expect "$xml" Aborts failed "signal 6"
  expect "$xml" ExitsZero failed "exited with status 0"
  expect "$xml" PassesAfter passed
  ! grep -q 'name="PassesBefore"' "$xml" || fail "slice 2/2 ran PassesBefore, slice 1/2's"
else
  fail "--units Probe@2/2 wrote no runner.sliced.Probe.2of2 report: $(ls "$dir/units" | grep sliced | tr '\n' ' ')"
fi
[ ! -f "$dir/units/runner.sliced.Probe.xml" ] || fail "--units Probe@2/2 also wrote a report of the whole unit"
"$runner" run --exe "$probe" --name runner.badslice --units 'Probe@3/2' --name-prefix runner.badslice. --report-dir "$dir" >/dev/null 2>&1
status=$?
[ $status -eq 2 ] || fail "--units Probe@3/2 made the runner exit $status, not 2 (bad usage)"

# A grading run's hang budget (KCONFORM_HANG_BUDGET_S): once its units' hung cases together cost that
# many seconds, no unit sharing the budget file starts another process; the cases left fail as not run.
budget_file="$dir/hang-budget"
rm -f "$budget_file"
# HostNeverReturns is that process's first case: its deadline adds the start-up allowance (1 s here).
KCONFORM_CASE_TIMEOUT_S=2 KCONFORM_STARTUP_DEADLINE_S=1 KCONFORM_HANG_BUDGET_S=2 KCONFORM_HANG_BUDGET_FILE="$budget_file" \
  "$runner" run --exe "$probe" --name runner.budget-a --report-dir "$dir" --filter 'Probe.HostNeverReturns:Probe.PassesAfter'
expect "$dir/units/runner.budget-a.xml" HostNeverReturns failed "did not finish within 3 s (KCONFORM_CASE_TIMEOUT_S 2 s, and 1 s"
expect "$dir/units/runner.budget-a.xml" PassesAfter failed "hang budget"
KCONFORM_CASE_TIMEOUT_S=2 KCONFORM_HANG_BUDGET_S=2 KCONFORM_HANG_BUDGET_FILE="$budget_file" "$runner" run --exe "$probe" \
  --name runner.budget-b --report-dir "$dir" --filter 'Probe.PassesBefore'
expect "$dir/units/runner.budget-b.xml" PassesBefore failed "hang budget"

# A wrapping tool's verdict comes from its own channel (--log-file), never from the program's output:
# a hazard line printed on stdout changes nothing; one in the tool's channel fails the run.
fake_tool="$(cd "$(dirname "$0")" && pwd)/fake_sanitizer.sh"
"$runner" run --exe "$probe" --name runner.tool-prints --report-dir "$dir" --filter 'Probe.Passes*' \
  --sanitizer clean --tool fake -- "$fake_tool" prints
status=$?
xml="$dir/units/runner.tool-prints.xml"
[ $status -eq 0 ] || fail "a hazard line on the program's output failed the tool's run (exit $status): printed text must not count"
expect "$xml" PassesBefore passed
"$runner" run --exe "$probe" --name runner.tool-reports --report-dir "$dir" --filter 'Probe.Passes*' \
  --sanitizer clean --tool fake -- "$fake_tool" reports
status=$?
xml="$dir/units/runner.tool-reports.xml"
[ $status -eq 1 ] || fail "a hazard in the tool's own channel did not fail the run (exit $status)"
expect "$xml" tool-reports.OutsideAnyCase failed "outside any case"
# A report outside any case names no case whose log one could read: its record keeps the tool's line
# (property tool_said), apart from the message, whose words alone decide the failure's kind.
expect "$xml" tool-reports.OutsideAnyCase failed \
  'name="tool_said" value="========= Error: Race reported between Write access and Read access (the tool&apos;s channel)"'
sed -n '/name="tool-reports.OutsideAnyCase"/,/<\/testcase>/p' "$xml" | grep -q '<failure message="[^"]*Race reported' &&
  fail "the tool's own line is in tool-reports.OutsideAnyCase's message, where it could change the failure's kind"
# Bounded whatever the channel holds (a submission under the tool can write into it): 3 lines, clipped.
"$runner" run --exe "$probe" --name runner.tool-floods --report-dir "$dir" --filter 'Probe.PassesBefore' \
  --sanitizer clean --tool fake -- "$fake_tool" floods
json="$dir/units/runner.tool-floods.json"
said=$(python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if c["name"].endswith(".OutsideAnyCase"): print(c["properties"].get("tool_said", ""))' "$json" 2>/dev/null)
[ "$(printf '%s\n' "$said" | grep -c '^========= Error: forged [0-9] x* \[\.\.\.\]$')" -eq 3 ] &&
  [ "$(printf '%s\n' "$said" | awk '{ if (length($0) > n) n = length($0) } END { print n }')" -le 306 ] ||
  fail "10 long forged lines: tool_said should keep 3, clipped to 300 characters: $(printf '%s' "$said" | cut -c1-80)"
# Text with no newline glued in front of the tool's own report does not hide it.
"$runner" run --exe "$probe" --name runner.tool-glued --report-dir "$dir" --filter 'Probe.PassesBefore' \
  --sanitizer clean --tool fake -- "$fake_tool" glued >"$dir/glued.log" 2>&1
status=$?
[ $status -eq 1 ] || fail "a tool report glued behind text with no newline was not counted (exit $status)"
expect "$dir/units/runner.tool-glued.xml" tool-glued.OutsideAnyCase failed "2 hazard(s) were reported outside any case"
python3 -c 'import json, sys
said = [c["properties"].get("tool_said", "") for c in json.load(open(sys.argv[1]))["cases"] if c["name"].endswith(".OutsideAnyCase")]
sys.exit(0 if said and "========= Error: ?[2Jcleared?screen" in said[0] and not any(ord(ch) < 32 and ch not in "\t\n" for ch in said[0]) else 1)' \
  "$dir/units/runner.tool-glued.json" || fail "a tool line's escape and carriage return were kept in tool_said, not shown as '?'"
# A forged endless line (16 MiB, no newline) is read as fast as it comes (the runner waits on the
# channel: at a pipe's 64 KiB per 100 ms look it took 21.8 s), in pieces of at most 128 KiB, counted
# once, and the log shows at most 8 MiB of it; 16 MiB of empty lines are read as fast (handed out line
# by line with an erase each, they took seconds a 64 KiB read).
for mode in streams newlines; do
  started=$SECONDS
  "$runner" run --exe "$probe" --name "runner.tool-$mode" --report-dir "$dir" --filter 'Probe.PassesBefore' \
    --sanitizer clean --tool fake -- "$fake_tool" $mode >"$dir/$mode.log" 2>&1
  [ $((SECONDS - started)) -le 10 ] || fail "16 MiB written into the tool's channel ($mode) took $((SECONDS - started)) s to read"
done
logged=$(wc -c <"$dir/streams.log")
[ "$logged" -le $((9 << 20)) ] || fail "16 MiB written into the tool's channel put $logged bytes into the runner's log"
grep -q "its further lines are counted, not shown" "$dir/streams.log" || fail "the runner's log does not say it stopped showing the tool's channel"
longest=$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$dir/streams.log")
[ "$longest" -le 131072 ] || fail "a 16 MiB tool line was handed out whole (${longest} characters in one line)"
expect "$dir/units/runner.tool-streams.xml" PassesBefore passed
expect "$dir/units/runner.tool-streams.xml" tool-streams.OutsideAnyCase failed "1 hazard(s) were reported outside any case"

# Issue 33: a grading run's tool run (KCONFORM_TOOL_UNTIL_FINDING=1) ends after the process in which
# its tool first reported a hazard (here outside any case, in the first process, which then dies in
# Segfaults): a tool is scored once, so PassesAfter is skipped as not run, never passed. Without the
# variable it runs in a fresh process, as every other run does.
"$runner" run --exe "$probe" --name runner.tool-all --report-dir "$dir" \
  --filter 'Probe.PassesBefore:Probe.Segfaults:Probe.PassesAfter' --sanitizer clean --tool fake -- "$fake_tool" reports
expect "$dir/units/runner.tool-all.xml" PassesAfter passed
KCONFORM_TOOL_UNTIL_FINDING=1 "$runner" run --exe "$probe" --name runner.tool-until --report-dir "$dir" \
  --filter 'Probe.PassesBefore:Probe.Segfaults:Probe.PassesAfter' --sanitizer clean --tool fake -- "$fake_tool" reports
status=$?
xml="$dir/units/runner.tool-until.xml"
[ $status -eq 1 ] || fail "a tool run stopped at its finding must still fail (exit $status)"
expect "$xml" PassesBefore passed
expect "$xml" Segfaults failed "signal 11"
expect "$xml" PassesAfter skipped "already reported a hazard (outside any case)"
expect "$xml" tool-until.OutsideAnyCase failed "outside any case"
processes=$(grep -o 'name="processes" value="[0-9]*' "$xml" | grep -o '[0-9]*$')
[ "${processes:-0}" -eq 1 ] || fail "expected the tool run to end after its first process, got ${processes:-no} processes"

# Issue 33: a case that failed out of device memory runs again in a fresh process, and what its first
# process reported from that case on is set aside: the tool's report outside any case (the fake tool
# reports one in the first process only) is not counted, and the case that ran after it there runs
# again. Only the last attempt is scored: every case passed, nothing outside any case.
rm -f "$dir/retry-probe-marker" "$dir/fake-tool-once"
KCONFORM_OOM_RETRIES=1 KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" FAKE_SANITIZER_ONCE="$dir/fake-tool-once" \
  "$runner" run --exe "$retry_probe" --name runner.retried --report-dir "$dir" --sanitizer clean --tool fake -- \
  "$fake_tool" reports-once
status=$?
xml="$dir/units/runner.retried.xml"
[ -e "$dir/retry-probe-marker" ] && [ -e "$dir/fake-tool-once" ] || fail "the retry probe's first process did not run as planned"
[ $status -eq 0 ] || fail "a finding of the process set aside for a retry was scored (exit $status)"
expect "$xml" DeviceFullOnce passed
expect "$xml" RunsAfter passed
expect "$xml" ToolFindsAHazard skipped
[ "$(grep -c '<testcase ' "$xml")" -eq 6 ] || fail "the retried unit should record its 6 cases and nothing outside them: $(grep -o 'name="[^"]*OutsideAnyCase"' "$xml")"
processes=$(grep -o 'name="processes" value="[0-9]*' "$xml" | grep -o '[0-9]*$')
[ "${processes:-0}" -eq 2 ] || fail "expected 2 processes (the first set aside), got ${processes:-none}"
# The same with the tool's run ending at its first finding: the finding outside any case of the
# process set aside does not stand, so it ends nothing; the retry runs both cases, as without the
# variable.
rm -f "$dir/retry-probe-marker" "$dir/fake-tool-once"
KCONFORM_TOOL_UNTIL_FINDING=1 KCONFORM_OOM_RETRIES=1 KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" \
  FAKE_SANITIZER_ONCE="$dir/fake-tool-once" "$runner" run --exe "$retry_probe" --name runner.retried-until \
  --report-dir "$dir" --sanitizer clean --tool fake -- "$fake_tool" reports-once
status=$?
xml="$dir/units/runner.retried-until.xml"
[ $status -eq 0 ] || fail "a finding of a process set aside for a retry ended the tool's run (exit $status)"
expect "$xml" DeviceFullOnce passed
expect "$xml" RunsAfter passed
# A finding in a case the set-aside process kept (ToolFindsAHazard, before the retried case) stands,
# but the cases set aside run again as they would have alone, and the rule acts only once a process's
# reports all stand: DeviceFullOnce and RunsAfter pass in the retry, and the unit fails for the finding.
rm -f "$dir/retry-probe-marker"
KCONFORM_TOOL_UNTIL_FINDING=1 KCONFORM_OOM_RETRIES=1 KCONFORM_RETRY_PROBE_HAZARD=1 \
  KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" "$runner" run --exe "$retry_probe" --name runner.kept-finding \
  --report-dir "$dir" --sanitizer clean --tool fake -- "$fake_tool" none
status=$?
xml="$dir/units/runner.kept-finding.xml"
[ $status -eq 1 ] || fail "a finding kept before a retried case did not fail the tool's run (exit $status)"
expect "$xml" ToolFindsAHazard failed "hazard"
expect "$xml" DeviceFullOnce passed
expect "$xml" RunsAfter passed

# A case that failed out of device memory on its every run is listed in KCONFORM_MEMORY_STARVED_FILE
# (<runner name> <tab> <case> <tab> starved: grade.sh runs it again alone, scripts/rerun_memory_starved.sh),
# and so is each case its process ran after it (after_starved); the messages say so, and the process's
# tool report outside any case (the fake tool's, in the first process only) stands apart, as
# OutsideAnyCase.deferred, until the run alone replaces it. Here its last failure still stands.
rm -f "$dir/retry-probe-marker" "$dir/starved.tsv" "$dir/fake-tool-once"
KCONFORM_OOM_RETRIES=0 KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" KCONFORM_MEMORY_STARVED_FILE="$dir/starved.tsv" \
  FAKE_SANITIZER_ONCE="$dir/fake-tool-once" "$runner" run --exe "$retry_probe" --name runner.starved --report-dir "$dir" \
  --sanitizer clean --tool fake -- "$fake_tool" reports-once
status=$?
xml="$dir/units/runner.starved.xml"
[ $status -eq 1 ] || fail "a case starved of device memory on its every run passed (exit $status)"
expect "$xml" DeviceFullOnce failed "listed to be run again alone"
expect "$xml" RunsAfter passed
expect "$xml" starved.OutsideAnyCase.deferred failed "run again alone"
expect "$xml" starved.OutsideAnyCase.deferred failed 'name="tool_said" value="========= Error: Race reported between Write access and Read access (the first process only)"'
grep -q 'name="starved.OutsideAnyCase"' "$xml" && fail "the starved process's report outside any case was counted as the unit's own"
[ "$(cat "$dir/starved.tsv" 2>/dev/null)" = "$(printf 'runner.starved\tRetryProbe.DeviceFullOnce\tstarved\nrunner.starved\tRetryProbe.RunsAfter\tafter_starved\nrunner.starved\tRetryProbe.ToolFindsAHazardLater\tafter_starved\nrunner.starved\tRetryProbe.AbortsWhereAsked\tafter_starved\nrunner.starved\tRetryProbe.RunsLast\tafter_starved')" ] ||
  fail "expected DeviceFullOnce listed starved and the 4 cases after it after_starved: $(cat "$dir/starved.tsv" 2>&1)"
# grade.sh's run again alone (KCONFORM_RERUN_ALONE=1, the listed cases named by KCONFORM_RERUN_CASES;
# the marker now there, so it passes, as it does once no neighbour holds the device; the fake tool
# reports nothing now): its verdicts replace the first run's in the unit's reports, saying so, the
# other case kept; the first run's deferred report outside any case goes with them; nothing listed.
rm -f "$dir/starved.tsv"
KCONFORM_RERUN_ALONE=1 KCONFORM_RERUN_CASES=RetryProbe.DeviceFullOnce:RetryProbe.RunsAfter:RetryProbe.ToolFindsAHazardLater:RetryProbe.AbortsWhereAsked:RetryProbe.RunsLast \
  KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" KCONFORM_MEMORY_STARVED_FILE="$dir/starved.tsv" \
  FAKE_SANITIZER_ONCE="$dir/fake-tool-once" "$runner" run --exe "$retry_probe" --name runner.starved --report-dir "$dir" \
  --sanitizer clean --tool fake -- "$fake_tool" reports-once
status=$?
[ $status -eq 0 ] || fail "the starved cases run again alone did not pass (exit $status)"
expect "$xml" DeviceFullOnce passed
grep -q 'run again alone, after the batch' "$dir/units/runner.starved.json" || fail "the cases run again alone do not say so"
expect "$xml" RunsAfter passed
expect "$xml" ToolFindsAHazard skipped
[ "$(grep -c '<testcase ' "$xml")" -eq 6 ] ||
  fail "the unit run again alone should keep its 6 cases and drop the deferred report: $(grep -o 'name="[^"]*"' "$xml" | tr '\n' ' ')"
grep -q '"processes":2' "$dir/units/runner.starved.json" || fail "the unit's processes should be both runs' (2): $(head -c 200 "$dir/units/runner.starved.json")"
[ ! -e "$dir/starved.tsv" ] || fail "a run again alone listed cases: $(cat "$dir/starved.tsv")"
# Run again alone, only the cases KCONFORM_RERUN_CASES names run (a replay's wider KCONFORM_GTEST_FILTER
# beside it widens nothing), and a case that fails out of device memory again is its own doing: no
# retry (one process), nothing listed, its failure merged; and the run alone keeps the student's hang budget (a
# budget already spent leaves its cases not run), never more lenient than the first run.
rm -f "$dir/retry-probe-marker" "$dir/starved.tsv"
KCONFORM_RERUN_ALONE=1 KCONFORM_OOM_RETRIES=3 KCONFORM_RERUN_CASES=RetryProbe.DeviceFullOnce KCONFORM_GTEST_FILTER='RetryProbe.*' \
  KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" KCONFORM_MEMORY_STARVED_FILE="$dir/starved.tsv" \
  "$runner" run --exe "$retry_probe" --name runner.starved --report-dir "$dir" >"$dir/starved-again.log" 2>&1
status=$?
[ $status -eq 1 ] || fail "a case starved again alone passed (exit $status)"
grep -q 'runner.starved: 0 passed, 1 failed, 0 skipped (of 1 cases) in 1 process' "$dir/starved-again.log" ||
  fail "a case starved again alone was retried: $(grep 'runner.starved:' "$dir/starved-again.log")"
[ ! -e "$dir/starved.tsv" ] || fail "a case starved again alone was listed: $(cat "$dir/starved.tsv")"
expect "$xml" DeviceFullOnce failed "cudaErrorMemoryAllocation"
expect "$xml" RunsAfter passed
printf 'grade.x\tX.Y\t5\n' >"$dir/spent-budget.tsv"
KCONFORM_RERUN_ALONE=1 KCONFORM_RERUN_CASES=RetryProbe.RunsAfter KCONFORM_HANG_BUDGET_S=1 \
  KCONFORM_HANG_BUDGET_FILE="$dir/spent-budget.tsv" "$runner" run --exe "$retry_probe" --name runner.starved \
  --report-dir "$dir" >/dev/null 2>&1
expect "$xml" RunsAfter failed "hang budget"
# With the tool's run ending at its first finding: a finding in a case its process ran after a starved
# case stands only until the run alone, so it ends nothing: the process dies in the case after it, and
# the last case still runs, in a fresh process.
rm -f "$dir/retry-probe-marker" "$dir/starved.tsv"
KCONFORM_TOOL_UNTIL_FINDING=1 KCONFORM_OOM_RETRIES=0 KCONFORM_RETRY_PROBE_HAZARD_LATER=1 KCONFORM_RETRY_PROBE_ABORT=1 \
  KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" KCONFORM_MEMORY_STARVED_FILE="$dir/starved.tsv" \
  "$runner" run --exe "$retry_probe" --name runner.starved-until --report-dir "$dir" --sanitizer clean --tool fake -- \
  "$fake_tool" none >/dev/null 2>&1
xml="$dir/units/runner.starved-until.xml"
expect "$xml" ToolFindsAHazardLater failed "hazard"
expect "$xml" AbortsWhereAsked failed "signal 6"
expect "$xml" RunsLast passed
grep -q "RetryProbe.ToolFindsAHazardLater	after_starved" "$dir/starved.tsv" ||
  fail "the later finding's case was not listed after_starved: $(cat "$dir/starved.tsv" 2>&1)"
rm -f "$dir/retry-probe-marker" "$dir/starved.tsv"
KCONFORM_OOM_RETRIES=1 KCONFORM_RETRY_PROBE_MARKER="$dir/retry-probe-marker" KCONFORM_MEMORY_STARVED_FILE="$dir/starved.tsv" \
  "$runner" run --exe "$retry_probe" --name runner.not-starved --report-dir "$dir"
status=$?
[ $status -eq 0 ] || fail "a case retried into a pass failed (exit $status)"
[ ! -e "$dir/starved.tsv" ] || fail "a case retried into a pass was listed as starved: $(cat "$dir/starved.tsv")"

if [ $failures -gt 0 ]; then
  echo "FAILED: $failures isolation check(s)"
  exit 1
fi
echo "PASSED: every fault cost its own case only"
