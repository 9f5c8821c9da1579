#!/usr/bin/env bash
# scripts/compare_runs.sh on fabricated report folders: a faithful split passes; a test or case lost,
# run in two shards, not in the one-machine run, or with another verdict each fails it.
set -u
compare=$1/compare_runs.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

junit() {  # junit <dir> <name:status>...  (CTest's layout: attributes on several lines)
  mkdir -p "$1/units"
  local dir=$1
  shift
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<testsuite name="kconform" tests="'$#'">'
    for t in "$@"; do
      printf '  <testcase name="%s" classname="%s"\n    time="1.0" status="%s">\n  </testcase>\n' "${t%%:*}" "${t%%:*}" "${t#*:}"
    done
    echo '</testsuite>'
  } >"$dir/junit.xml"
}
unit() {  # unit <dir> <unit> <case:status>...  (tools/runner's layout)
  local dir=$1 name=$2
  shift 2
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites name=\"$name\">"
    echo "  <testsuite name=\"$name\">"
    for c in "$@"; do
      echo "    <testcase classname=\"${c%%.*}\" name=\"$(echo "${c%%:*}" | cut -d. -f2-)\" time=\"0.1\" status=\"${c#*:}\">"
      # The message as XML writes it: entities, which the listing must read back.
      [ "${c#*:}" = failed ] && echo "      <failure message=\"fabricated failure of ${c%%:*}: &lt;01&gt; &amp;lt; &quot;q&quot; &apos;a&apos;&#10;second line\">fabricated failure of ${c%%:*}</failure>"
      echo "    </testcase>"
    done
    echo "  </testsuite>"
    echo "</testsuites>"
  } >"$dir/units/$name.xml"
}
expect_against() {  # expect_against <one-machine report> <exit status> <what> <shard dirs...>
  local single=$1 want=$2 what=$3
  shift 3
  "$compare" "$single" "$@" >"$work/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"
    cat "$work/out"
    failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}
expect() { expect_against "$work/single" "$@"; }  # expect <exit status> <what> <shard dirs...>
# lists_timing <what>: the last comparison listed Perf/P.Atax/1's timing difference.
lists_timing() {
  grep -qE 'Perf/P.Atax/1	(passed -> failed|failed -> passed)' "$work/out" ||
    { echo "FAIL: $1: the timing difference is not listed"; cat "$work/out"; failures=$((failures + 1)); }
}

junit "$work/single" u1:run u2:run cpu.test:run
unit "$work/single" u1 "Grade/A.x/1:passed" "Grade/A.x/2:failed"
unit "$work/single" u2 "Grade/B.y/1:skipped"

junit "$work/s1" u1:run cpu.test:run
unit "$work/s1" u1 "Grade/A.x/1:passed" "Grade/A.x/2:failed"
junit "$work/s2" u2:run
unit "$work/s2" u2 "Grade/B.y/1:skipped"
expect 0 "a faithful split" "$work/s1" "$work/s2"

junit "$work/lost" u1:run
unit "$work/lost" u1 "Grade/A.x/1:passed" "Grade/A.x/2:failed"
expect 1 "a test and its cases lost" "$work/lost" "$work/s2"

junit "$work/twice" u1:run u2:run
unit "$work/twice" u1 "Grade/A.x/1:passed" "Grade/A.x/2:failed"
unit "$work/twice" u2 "Grade/B.y/1:skipped"
expect 1 "a unit run in two shards" "$work/s1" "$work/twice"

junit "$work/other" u2:run
unit "$work/other" u2 "Grade/B.y/1:passed"
expect 1 "a case with another verdict" "$work/s1" "$work/other"

junit "$work/extra" u2:run new.test:run
unit "$work/extra" u2 "Grade/B.y/1:skipped" "Grade/B.y/2:passed"
expect 1 "a test and a case the one-machine run did not have" "$work/s1" "$work/extra"

junit "$work/failed" u2:fail
unit "$work/failed" u2 "Grade/B.y/1:skipped"
expect 1 "a CTest test that failed in the shard only" "$work/s1" "$work/failed"

# A perf point read SLOW in a shard and OK on one machine (or the other way): listed, not failed,
# since each run judged its own points; the same difference in a correctness unit still fails.
# perf_report <dir> <u1's CTest status> <the perf test's> <u1's case verdict> <perf case:verdict>...
perf_report() {
  local dir=$1 u1_test=$2 perf_test=$3 u1_case=$4
  shift 4
  junit "$dir" "u1:$u1_test" "polybench.perf.AgainstBaseline:$perf_test"
  unit "$dir" u1 "Grade/A.x/1:$u1_case"
  unit "$dir" polybench.perf.AgainstBaseline "$@"
}
# one_unit_report <dir> <unit> <its CTest status> <case:verdict>: a report of one test and its unit.
one_unit_report() {
  junit "$1" "$2:$3"
  unit "$1" "$2" "$4"
}
perf_report "$work/psingle" run run passed "Perf/P.Atax/1:passed" "Perf/P.Conv/1:passed"
perf_report "$work/pshard" run fail passed "Perf/P.Atax/1:failed" "Perf/P.Conv/1:passed"
expect_against "$work/psingle" 0 "a perf point's timing verdict differs: listed, not failed" "$work/pshard"
lists_timing "a perf point's timing verdict"
for want in '| tests | 2 | 2 | 0 | 0 | 0 | 0 | 1 |' '| cases | 3 | 3 | 0 | 0 | 0 | 0 | 1 |' \
    "(fabricated failure of Perf/P.Atax/1: <01> &lt; \"q\" 'a')" '1 perf test(s) and 1 perf case(s) passed in one run and failed in the other'; do
  grep -qF -- "$want" "$work/out" ||
    { echo "FAIL: the timing difference's report lacks: $want"; cat "$work/out"; failures=$((failures + 1)); }
done
# The same on several GPUs' unit names (<unit>.gpu<k>), the other way round (failed alone, passed in the shard).
one_unit_report "$work/gsingle" polybench.perf.AgainstBaseline.gpu1 fail "Perf/P.Atax/1:failed"
one_unit_report "$work/gshard" polybench.perf.AgainstBaseline.gpu1 run "Perf/P.Atax/1:passed"
expect_against "$work/gsingle" 0 "a .gpu<k> perf unit's timing verdict differs: listed, not failed" "$work/gshard"
lists_timing "a .gpu<k> perf unit's timing verdict"
# Not timing verdicts: a perf test not run, a perf case skipped (no baseline on one card), and a
# correctness unit whose name holds ".perf." further on.
perf_report "$work/notrun" run notrun passed "Perf/P.Atax/1:passed" "Perf/P.Conv/1:passed"
expect_against "$work/psingle" 1 "a perf test not run in one run is a different verdict" "$work/notrun"
perf_report "$work/skipped" run run passed "Perf/P.Atax/1:skipped" "Perf/P.Conv/1:passed"
expect_against "$work/psingle" 1 "a perf case skipped in one run is a different verdict" "$work/skipped"
one_unit_report "$work/csingle" matmul.conformance.perf.Like run "Grade/A.x/1:passed"
one_unit_report "$work/cother" matmul.conformance.perf.Like fail "Grade/A.x/1:failed"
expect_against "$work/csingle" 1 "a correctness unit with .perf. further in its name is compared exactly" "$work/cother"
perf_report "$work/cshard" fail run failed "Perf/P.Atax/1:passed" "Perf/P.Conv/1:passed"
expect_against "$work/psingle" 1 "a correctness case's verdict differs beside perf units" "$work/cshard"
perf_report "$work/nshard" run run passed "Perf/P.Atax/1:passed"
expect_against "$work/psingle" 1 "a perf case lost is lost, timing or not" "$work/nshard"

expect 2 "a report without junit.xml" "$work/nowhere"
[ $failures -eq 0 ] && echo "compare_runs: all checks passed"
exit $failures
