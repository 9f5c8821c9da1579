#!/usr/bin/env bash
# Packs (KCONFORM_PACK_SECONDS, ctest_config/KconformTesting.cmake): a scratch configure of this tree
# with packs of 12 s and recorded seconds of its own, and a fake runner whose listing gives a suite's
# units; each generated units file is then read by cmake -P with add_test and set_tests_properties
# printing what they are given (no build, no GPU). A program's whole, small units (recorded at no more
# than 6 s, a fraction rounded up, not Large) run in packs, longest first into the first with room,
# each unit in exactly one test; a unit recorded above half a pack, one never recorded, one sharded by
# its cases and a Large one keep a test of their own, and so does a unit left alone in a pack; a pack
# shares the GPU like a unit (one slot, the units' labels and environment), costs its recorded seconds
# and has a case timeout more for each unit more. Not in the huge or alone (perf) suites, and nothing
# of it with 0.
#   pack_registration_test.sh <cmake> <source dir> <scratch dir>
set -u
# The expected lists below are in byte order: sort collates by the locale (en_US puts pack1of2 before
# Tiny2, C after Unrecorded), and the GPU box's differs from CI's.
export LC_ALL=C
cmake=$1 source=$2 scratch=$3
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
rm -rf "$scratch" && mkdir -p "$scratch"
costs=$scratch.costs.txt
{
  # Rounded up: Tiny1 2, Tiny2 3, Four 5, Mid 7 (above half a pack by its fraction); Many is split by
  # its 1500 cases whatever its seconds.
  for u in Tiny1:1.4 Tiny2:2.2 Six:6.0 Alone:6 Mid:6.1 Big:7.1 Five:5.0 Four:4.3 Many:1 Many.1of3:1 Large:1 Foo.Large:1; do
    echo "reduction.conformance.${u%%:*} 2 ${u#*:}"
  done
  for suite in huge perf; do echo "reduction.$suite.Tiny1 2 1"; echo "reduction.$suite.Tiny2 2 1"; done
  echo "---"
} >"$costs"
configure() {  # configure <pack seconds>
  "$cmake" -S "$source" -B "$scratch" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DKCONFORM_PACK_SECONDS="$1" -DKCONFORM_RECORDED_COSTS="$costs" >"$scratch.log" 2>&1 ||
    { echo "FAILED: configure ($1): $(tail -5 "$scratch.log")"; exit 1; }
  # The runner the generated files ask for their listing: "<unit>\t<cases>\t<cost>" a line.
  mkdir -p "$scratch/tools/runner"
  cat >"$scratch/tools/runner/kconform_runner" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = list ] || exit 9
printf '%s\t%s\t%s\n' Tiny1 5 10 Tiny2 5 20 Six 5 11 Alone 5 12 Mid 50 30 Big 100 40 Unrecorded 10 5 Many 1500 60 \
  Large 10 50 Foo.Large 10 50 Five 5 7 Four 5 9
FAKE
  chmod +x "$scratch/tools/runner/kconform_runner"
}
registered() {  # registered <suite>: "TEST <name> <args...>" and "PROPS <name> <properties...>" lines
  cat >"$scratch.read.cmake" <<CMAKE
function(add_test name)
  string(REPLACE ";" " " args "\${ARGN}")
  message("TEST \${name} \${args}")
endfunction()
function(set_tests_properties name)
  string(REPLACE ";" " " args "\${ARGN}")
  message("PROPS \${name} \${args}")
endfunction()
include("$scratch/tests/$1_units.cmake")
CMAKE
  "$cmake" -P "$scratch.read.cmake" 2>&1
}
units_of() {  # units_of <registered lines>: each unit a test runs, one a line ("<test> <unit>")
  awk '$1 == "TEST" { for (i = 3; i <= NF; i++) { if ($i == "--unit") print $2, $(i + 1); if ($i == "--units") { n = split($(i + 1), u, ","); for (k = 1; k <= n; k++) print $2, u[k] } } }'
}

configure 12
lines=$(registered reduction_gpu_tests)
tests=$(awk '$1 == "TEST" && $2 !~ /[.]quick/ { print $2 }' <<<"$lines" | sort | tr '\n' ' ')
want="reduction.conformance.Big reduction.conformance.Foo.Large reduction.conformance.Large reduction.conformance.Many.1of3 reduction.conformance.Many.2of3 reduction.conformance.Many.3of3 reduction.conformance.Mid reduction.conformance.Tiny2 reduction.conformance.Unrecorded reduction.conformance.pack1of2 reduction.conformance.pack2of2 "
[ "$tests" = "$want" ] || fail "the tests: [$tests], expected [$want]"
# Longest first into the first pack with room (12 s): Six 6 and Alone 6 fill the first, Four 5 and
# Five 5 the second, Tiny2 3 opens a third, Tiny1 2 fills the second; Tiny2, alone in its pack, keeps
# its own test, as registered without packs.
pack1=$(grep '^TEST reduction.conformance.pack1of2 ' <<<"$lines")
pack2=$(grep '^TEST reduction.conformance.pack2of2 ' <<<"$lines")
grep -qF -- '--name reduction.conformance.pack1of2 --units Six,Alone --name-prefix reduction.conformance. ' <<<"$pack1" ||
  fail "pack 1 is not Six and Alone in one process, reported under their own names: $pack1"
grep -qF -- '--units Four,Five,Tiny1 --name-prefix reduction.conformance. ' <<<"$pack2" || fail "pack 2 is not Four, Five and Tiny1: $pack2"
grep -qF -- '--name reduction.conformance.Tiny2 --unit Tiny2 --shard 1/1 ' <<<"$(grep '^TEST reduction.conformance.Tiny2 ' <<<"$lines")" ||
  fail "Tiny2, alone in its pack, has not its own test: $(grep '^TEST reduction.conformance.Tiny2 ' <<<"$lines")"
grep -qx 'PROPS reduction.conformance.Tiny2 PROPERTIES COST 20' <<<"$lines" || fail "Tiny2's cost is not its declared 20"
lone_props=$(grep '^PROPS reduction.conformance.Tiny2 PROPERTIES LABELS' <<<"$lines" | sed 's/^PROPS reduction.conformance.Tiny2 PROPERTIES //')
[ -n "$lone_props" ] && [ "$lone_props" = "$(grep '^PROPS reduction.conformance.Big PROPERTIES LABELS' <<<"$lines" | sed 's/^PROPS reduction.conformance.Big PROPERTIES //')" ] ||
  fail "Tiny2's properties are not a unit's: $lone_props"
# Every unit in exactly one test (Many in each of its 3 shards, which the runner's --shard splits).
every=$(units_of <<<"$lines" | grep -v '[.]quick' | awk '{ print $2 }' | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
[ "$every" = "Alone:1 Big:1 Five:1 Foo.Large:1 Four:1 Large:1 Many:3 Mid:1 Six:1 Tiny1:1 Tiny2:1 Unrecorded:1 " ] ||
  fail "each unit in one test: [$every]"
# A pack shares the GPU as its units would (one slot, their labels, threads and CUDA wait) but for its
# timeout (a unit's 900 s and a case's 300 s for each unit more), costs its recorded seconds (12 and 12:
# the measured tests' scale), and is not RUN_SERIAL.
unit_props=$(grep '^PROPS reduction.conformance.Big PROPERTIES LABELS' <<<"$lines" | sed 's/^PROPS reduction.conformance.Big PROPERTIES //')
for p in 1:1200 2:1500; do
  props=$(grep "^PROPS reduction.conformance.pack${p%%:*}of2 PROPERTIES LABELS" <<<"$lines" | sed "s/^PROPS reduction.conformance.pack${p%%:*}of2 PROPERTIES //")
  [ -n "$unit_props" ] && [ "$props" = "${unit_props/TIMEOUT 900/TIMEOUT ${p#*:}}" ] ||
    fail "pack ${p%%:*}'s properties [$props] are not a unit's with TIMEOUT ${p#*:} [$unit_props]"
done
grep -q 'RESOURCE_GROUPS 1,gpus:1 ' <<<"$unit_props" && ! grep -q RUN_SERIAL <<<"$unit_props" || fail "a unit's properties: $unit_props"
grep -qx 'PROPS reduction.conformance.pack1of2 PROPERTIES COST 12' <<<"$lines" && grep -qx 'PROPS reduction.conformance.pack2of2 PROPERTIES COST 12' <<<"$lines" ||
  fail "the packs' costs: $(grep 'pack.*COST' <<<"$lines" | tr '\n' ' ')"
# gpu-quick's tests are as before: every unit but the Large ones, in the quick parts.
quick=$(units_of <<<"$lines" | grep '[.]quick' | awk '{ print $2 }' | sort | tr '\n' ' ')
[ "$quick" = "Alone Big Five Four Many Mid Six Tiny1 Tiny2 Unrecorded " ] || fail "gpu-quick's units changed: [$quick]"
# Not in the huge suites (every core each) nor the alone ones (the perf points).
for suite in reduction_huge_tests reduction_perf_tests; do
  grep -q '^TEST [^ ]*[.]pack[0-9]' <<<"$(registered $suite)" && fail "$suite has packs"
done

configure 0
lines=$(registered reduction_gpu_tests)
grep -q '^TEST [^ ]*[.]pack[0-9]' <<<"$lines" && fail "packs with KCONFORM_PACK_SECONDS=0"
every=$(units_of <<<"$lines" | grep -v '[.]quick' | awk '{ print $2 }' | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
[ "$every" = "Alone:1 Big:1 Five:1 Foo.Large:1 Four:1 Large:1 Many:3 Mid:1 Six:1 Tiny1:1 Tiny2:1 Unrecorded:1 " ] ||
  fail "with 0, not every unit its own test: [$every]"
if "$cmake" -S "$source" -B "$scratch" -DKCONFORM_PACK_SECONDS=ten >"$scratch.log" 2>&1; then
  fail "KCONFORM_PACK_SECONDS=ten was accepted"
fi
rm -rf "$scratch" "$scratch".*
[ $failures -eq 0 ] && echo "PASSED: packs of small units, as registered" || { echo "FAILED: $failures check(s)"; exit 1; }
