#!/usr/bin/env bash
# merge_junit.sh <name> <junit.xml>...
#
# One JUnit file on stdout from CTest's: every <testsuite> of each file, in order, under one
# <testsuites name="<name>">. Used where one report holds several CTest runs: the GPU run's two
# phases (run_gpu_suite.sh) and a run split across machines (merge_reports.sh). A missing file is
# left out (its caller says why); so is CTest's self-closing empty suite, which a phase that selected
# no test leaves and the copy below would not end.
set -u
name=$1
shift
echo '<?xml version="1.0" encoding="UTF-8"?>'
echo "<testsuites name=\"$name\">"
for file in "$@"; do
  grep -q '</testsuite>' "$file" 2>/dev/null || continue  # missing, or CTest's empty <testsuite .../>
  sed -n '/<testsuite[ >]/,/<\/testsuite>/p' "$file"
done
echo '</testsuites>'
