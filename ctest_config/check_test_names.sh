#!/usr/bin/env bash
# check_test_names.sh <build dir>: CTest names must be stable and readable. Fails if any registered
# test name carries gtest's printed parameter ("# GetParam() = 48-byte object <A0-0A ...>"), whose
# bytes change from run to run and break JUnit history and --rerun-failed.
set -u
listing=$(ctest --test-dir "$1" -N 2>&1)
status=$?
if [ $status -ne 0 ]; then echo "$listing"; echo "FAILED: ctest -N failed"; exit 1; fi
bad=$(echo "$listing" | grep -E 'GetParam|byte object|0x[0-9a-f]{6,}' || true)
if [ -n "$bad" ]; then
  echo "$bad" | head -n 20
  echo "FAILED: $(echo "$bad" | wc -l) test name(s) carry printed parameters"
  exit 1
fi
echo "PASSED: $(echo "$listing" | grep -c '  Test  *#') test names, none with printed parameters"
