#!/usr/bin/env bash
# rerun_memory_starved_test.sh <scripts/rerun_memory_starved.sh> <scratch dir>
#
# grade.sh's last phase on a stand-in CTest project (no GPU, no runner): each test logs its name, the
# KCONFORM_RERUN_ALONE and case filter it was given, its start and its end, and records a merge as the
# runner does (<KCONFORM_MEMORY_STARVED_FILE>.merged) unless it is dora's; the students' lists are
# written as the runner writes them. Checks that
#   - exactly the listed tests run again (a student without a list, a test of a listed student that
#     was not listed, and every test of a student whose own process the runner killed for device
#     memory, do not), each once, one at a time, with
#     KCONFORM_RERUN_ALONE=1 and KCONFORM_RERUN_CASES naming its starved cases and those run after
#     them, alone, the students with the fewest listed cases first;
#   - student names are matched literally and whole (a name with regex characters, a name that name
#     matches as a pattern, and a name that holds another's);
#   - the listed cases' own hangs leave the student's hang budget, every other hang stays;
#   - memory_starved.rerun.tsv records what became of each listed test: ran (only where a merge was
#     recorded), or not run and why (the runner's kill, a test ctest does not know, no merge recorded,
#     the phase's limit, a test stopped at its share, whose processes go with it);
#   - each list is kept as memory_starved.first-run.tsv, and a second call runs nothing.
set -u
script=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

project="$dir/project"
mkdir -p "$project"
log="$dir/ran.log"
cat >"$dir/fake_test.sh" <<'FAKE'
#!/usr/bin/env bash
echo "$1 start $(date +%s%N) ${KCONFORM_RERUN_ALONE:-unset} ${KCONFORM_RERUN_CASES:-unset}" >>"$2"
case "$1" in
  eve.*) echo $$ >"$(dirname "$2")/eve.pid"; sleep 20 ;;
  *) sleep 0.3 ;;
esac
case "$1" in
  dora.*) ;;
  *) [ "${KCONFORM_RERUN_ALONE:-}" = 1 ] && printf 'grade.%s\t1\n' "${1#*.}" >>"$KCONFORM_MEMORY_STARVED_FILE.merged" ;;
esac
echo "$1 end $(date +%s%N)" >>"$2"
FAKE
chmod +x "$dir/fake_test.sh"
students=(alice malice 'c.d+e' cxdde bob dora eve)
tests=(values sanitizer.memcheck performance)
{
  echo "cmake_minimum_required(VERSION 3.20)"
  for s in "${students[@]}"; do
    for t in "${tests[@]}"; do
      echo "add_test(\"$s.$t\" \"$dir/fake_test.sh\" \"$s.$t\" \"$log\")"
      echo "set_tests_properties(\"$s.$t\" PROPERTIES RESOURCE_GROUPS \"gpus:1\" ENVIRONMENT \"KCONFORM_MEMORY_STARVED_FILE=$dir/$s/run/memory_starved.tsv\")"
    done
  done
} >"$project/CTestTestfile.cmake"
cat >"$project/resources.json" <<'JSON'
{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 10}]}]}
JSON
for s in "${students[@]}"; do mkdir -p "$dir/$s/run"; done
printf '%s\t%s\n' alice "$dir/alice" malice "$dir/malice" 'c.d+e' "$dir/c.d+e" cxdde "$dir/cxdde" bob "$dir/bob" dora "$dir/dora" \
  >"$project/students.tsv"
# alice: two cases of her values test (and one their process ran after them) and one of her memcheck
# run starved; and a test the project does not have. Her hang budget holds a hang of a listed case and
# of two that are not. malice (which holds alice's name): nothing listed.
printf 'grade.values\tGrade/Small.A\tstarved\ngrade.values\tGrade/Large.B\tstarved\ngrade.values\tGrade/Large.C\tafter_starved\ngrade.sanitizer.memcheck\tGrade/Large.B\tstarved\ngrade.odd_sizes\tGrade/Odd.C\tstarved\n' \
  >"$dir/alice/run/memory_starved.tsv"
printf 'grade.values\tGrade/Large.B\t10\ngrade.values\tGrade/Small.H\t12\ngrade.sanitizer.racecheck\tGrade/Large.B\t12\n' \
  >"$dir/alice/run/hangs.tsv"
# c.d+e: its performance test starved. cxdde (which c.d+e matches as a regex): nothing listed. bob
# starved in values, but the runner killed one of his processes for device memory: his own hoard, not
# run again. dora starved in values; her test records no merge.
printf 'grade.performance\tGrade/Performance.Timed\tstarved\n' >"$dir/c.d+e/run/memory_starved.tsv"
printf 'grade.values\tGrade/Small.A\tstarved\ngrade.sanitizer.memcheck\tGrade/Small.A\tmemory_kill\n' \
  >"$dir/bob/run/memory_starved.tsv"
printf 'grade.values\tGrade/Small.A\tstarved\n' >"$dir/dora/run/memory_starved.tsv"

out=$("$script" "$project" "$project/resources.json" "$project/students.tsv" 2>&1)
status=$?
echo "$out"
[ $status -eq 0 ] || fail "exit $status"
ran=$(awk '$2 == "start" { print $1 }' "$log" 2>/dev/null | paste -sd' ' -)
# The students with the fewest listed cases first (c.d+e and dora 1, by name; alice 5), each student's
# tests in list order.
[ "$ran" = "c.d+e.performance dora.values alice.values alice.sanitizer.memcheck" ] ||
  fail "expected c.d+e.performance, dora.values, alice.values, then alice.sanitizer.memcheck, once each; ran: ${ran:-nothing}"
given() { awk -v t="$1" '$1 == t && $2 == "start" { print $4, $5 }' "$log"; }
[ "$(given alice.values)" = "1 Grade/Small.A:Grade/Large.B:Grade/Large.C" ] ||
  fail "alice.values should run alone with its two starved cases and the one run after them: $(given alice.values)"
[ "$(given alice.sanitizer.memcheck)" = "1 Grade/Large.B" ] ||
  fail "alice.sanitizer.memcheck should run alone with its one starved case: $(given alice.sanitizer.memcheck)"
[ "$(given c.d+e.performance)" = "1 Grade/Performance.Timed" ] ||
  fail "c.d+e.performance should run alone with its starved case: $(given c.d+e.performance)"
overlap=$(sort -k3,3n "$log" | awk '$2 == "start" && open { bad = 1 } $2 == "start" { open = 1 } $2 == "end" { open = 0 } END { print bad + 0 }')
[ "$overlap" = 0 ] || fail "tests ran again side by side: $(sort -k3,3n "$log" | tr '\n' ' ')"
[ "$(cut -f1,2 "$dir/alice/run/hangs.tsv" | paste -sd' ' -)" = "$(printf 'grade.values\tGrade/Small.H grade.sanitizer.racecheck\tGrade/Large.B')" ] ||
  fail "alice's hang budget should lose only values' Large.B: $(cat "$dir/alice/run/hangs.tsv")"
for s in alice 'c.d+e' bob dora; do
  [ ! -e "$dir/$s/run/memory_starved.tsv" ] && [ -s "$dir/$s/run/memory_starved.first-run.tsv" ] ||
    fail "$s's list was not kept as memory_starved.first-run.tsv"
done
record() { sort "$dir/$1/run/memory_starved.rerun.tsv" 2>&1 | paste -sd'|' -; }
[ "$(record alice)" = "$(printf 'grade.odd_sizes\tnot run: the run alone recorded no verdict (ctest-rerun.log)|grade.sanitizer.memcheck\tran|grade.values\tran')" ] ||
  fail "alice's record: $(record alice)"
[ "$(record bob)" = "$(printf 'grade.values\tnot run: the runner killed 1 of its processes for device memory')" ] ||
  fail "bob's record: $(record bob)"
[ "$(record 'c.d+e')" = "$(printf 'grade.performance\tran')" ] || fail "c.d+e's record: $(record 'c.d+e')"
[ "$(record dora)" = "$(printf 'grade.values\tnot run: the run alone recorded no verdict (ctest-rerun.log)')" ] ||
  fail "dora's record (no merge recorded): $(record dora)"
for s in malice cxdde; do
  [ ! -e "$dir/$s/run/memory_starved.rerun.tsv" ] || fail "$s had nothing listed and has a record"
done
case "$out" in *"not running bob.values again"*"killed 1 "*) ;; *) fail "the output does not say why bob's test did not run again: $out" ;; esac

# Nothing listed any more: a second call runs nothing and says nothing.
: >"$log"
out=$("$script" "$project" "$project/resources.json" "$project/students.tsv")
[ $? -eq 0 ] && [ -z "$out" ] && [ ! -s "$log" ] || fail "a call with no list ran something: $out $(cat "$log")"

# The phase's time limit: with 0 s, nothing runs, and each test's record says why.
printf 'grade.values\tGrade/Small.A\tstarved\n' >"$dir/alice/run/memory_starved.tsv"
KCONFORM_RERUN_ALONE_LIMIT_S=0 "$script" "$project" "$project/resources.json" "$project/students.tsv" >/dev/null
[ ! -s "$log" ] || fail "a test ran again past the phase's limit: $(cat "$log")"
[ "$(record alice)" = "$(printf "grade.values\tnot run: the phase's 0 s, or its share of them, were spent")" ] || fail "past the limit, alice's record: $(record alice)"

# A test past its share is stopped, with the processes it started.
printf '%s\t%s\n' eve "$dir/eve" >"$project/eve.tsv"
printf 'grade.values\tGrade/Small.A\tstarved\n' >"$dir/eve/run/memory_starved.tsv"
began=$(date +%s)
KCONFORM_RERUN_ALONE_LIMIT_S=2 "$script" "$project" "$project/resources.json" "$project/eve.tsv" 2>/dev/null
took=$(($(date +%s) - began))
[ "$took" -lt 15 ] || fail "the test past its share was not stopped ($took s)"
[ "$(record eve)" = "$(printf "grade.values\tnot run: stopped at its student's share of the phase (2 s left of it)")" ] || fail "eve's record: $(record eve)"
sleep 0.5
# (A zombie, where nothing reaps the orphan, is ended.)
if [ -s "$dir/eve.pid" ] && ps -o stat= -p "$(cat "$dir/eve.pid")" 2>/dev/null | grep -qv '^Z'; then
  fail "the stopped test's process is still running"
  kill -KILL "$(cat "$dir/eve.pid")"
fi

# Bad usage.
"$script" "$project" 2>/dev/null
[ $? -eq 2 ] || fail "a call without its three arguments was not refused with 2"

if [ $failures -gt 0 ]; then
  echo "FAILED: $failures check(s)"
  exit 1
fi
echo "rerun_memory_starved.sh: all checks passed"
