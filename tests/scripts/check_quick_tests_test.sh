#!/usr/bin/env bash
# ctest_config/check_quick_tests.sh on fabricated CTest listings of one program with units A and B:
# quick tests that run each unit once, whole or in all slices of one cut, pass; a unit missed, one run
# twice (in one quick test or two, spelled A@01/2 or A@1/1 as well), slices of different cuts, a slice
# missing, a bad slice or a unit the per-unit tests do not have each fail it.
set -u
check=$1/check_quick_tests.sh presets=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# listing <quick test's --units>...: per-unit tests of A and B (label gpu), one quick test per argument;
# with PACK=<units> in the environment those units run in one pack (KCONFORM_PACK_SECONDS: a gpu test
# with --units) instead of a test each.
listing() {
  python3 - "$@" >"$work/listing.json" <<'PY'
import json, os, sys
exe = "/build/tests/fam_gpu_tests"
packed = [u for u in os.environ.get("PACK", "").split(",") if u]
tests = [{"name": f"fam.conformance.{u}",
          "command": ["runner", "run", "--exe", exe, "--name", f"fam.conformance.{u}", "--unit", u],
          "properties": [{"name": "LABELS", "value": ["gpu", "fam", "conformance"]}]} for u in ("A", "B") if u not in packed]
if packed:
    tests.append({"name": "fam.conformance.pack1of1",
                  "command": ["runner", "run", "--exe", exe, "--name", "fam.conformance.pack1of1", "--units", ",".join(packed),
                              "--name-prefix", "fam.conformance."],
                  "properties": [{"name": "LABELS", "value": ["gpu", "fam", "conformance"]}]})
for k, units in enumerate(sys.argv[1:], 1):
    name = f"fam.conformance.quick.{k}of{len(sys.argv) - 1}"
    tests.append({"name": name,
                  "command": ["runner", "run", "--exe", exe, "--name", name, "--units", units, "--name-prefix", "fam.conformance."],
                  "properties": [{"name": "LABELS", "value": ["quick", "fam", "conformance"]}]})
print(json.dumps({"kind": "ctestInfo", "tests": tests}))
PY
}
expect() {  # expect PASSED|FAILED <what it shows> <quick tests' --units>...
  local want=$1 what=$2
  shift 2
  listing "$@"
  local out
  out=$("$check" /nonexistent "$presets" "$work/listing.json" 2>&1)
  if ! echo "$out" | grep -q "^$want"; then
    echo "FAIL: $what (quick tests: $*): expected $want, got:"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}

expect PASSED "each unit whole, once" "A,B"
expect PASSED "each unit once, over two quick tests" "A" "B"
expect PASSED "A in two slices of one cut, in two quick tests" "A@1/2,B" "A@2/2"
expect PASSED "A in three slices" "A@3/3" "A@1/3,B" "A@2/3"
expect FAILED "B missed" "A"
expect FAILED "A twice in one quick test" "A,A,B"
expect FAILED "A whole in two quick tests" "A,B" "A"
expect FAILED "a slice twice in one quick test, spelled two ways" "A@1/2,A@01/2,B" "A@2/2"
expect FAILED "A whole and as its one slice" "A,A@1/1,B"
expect FAILED "a slice in two quick tests" "A@1/2,B" "A@1/2" "A@2/2"
expect FAILED "slices of different cuts" "A@1/2,B" "A@2/3"
expect FAILED "a slice missing" "A@1/3,B" "A@2/3"
expect FAILED "A whole and in slices" "A,B" "A@1/2" "A@2/2"
expect FAILED "a slice past its count" "A@3/2,B"
expect FAILED "a unit the per-unit tests do not have" "A,B,C"
# Packs: the full run's tests of the units may be a pack of several.
PACK=A,B expect PASSED "A and B in a pack, each once in quick" "A,B"
PACK=A,B expect FAILED "A and B in a pack, B missed in quick" "A"
PACK=A expect FAILED "A in a pack, C only in quick" "A,B,C"

if [ "$failures" -gt 0 ]; then
  echo "FAILED: $failures of check_quick_tests.sh's verdicts were wrong"
  exit 1
fi
echo "PASSED: check_quick_tests.sh passed the faithful quick tests and failed each fabricated fault"
