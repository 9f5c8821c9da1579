#!/usr/bin/env bash
# rerun_memory_starved_test.sh <scripts/rerun_memory_starved.sh> <scratch dir>
#
# grade.sh's last phase on a stand-in CTest project (no GPU, no runner): each test logs its name, the
# case filter and KCONFORM_RERUN_ALONE it was given, its start and its end; the students' lists are
# written as the runner writes them. Checks that
#   - exactly the listed tests run again (a student without a list, a test of a listed student that
#     was not listed, and every test of a student whose own process the runner killed for device
#     memory, do not), each once, one at a time, with KCONFORM_RERUN_ALONE=1 and a filter naming its
#     starved cases and those their process ran after them, alone;
#   - student names are matched literally and whole (a name with regex characters, a name that name
#     matches as a pattern, and a name that holds another's);
#   - each list is kept as memory_starved.first-run.tsv, and memory_starved.rerun.tsv records what
#     became of each listed test: ran, or not run and why (the runner's kill, a test ctest does not
#     know, the phase's time limit); a second call runs nothing.
set -u
script=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

project="$dir/project"
mkdir -p "$project"
log="$dir/ran.log"
# A test: logs "<name> start <ns> <alone> <filter>", sleeps a little (so two running at once would
# overlap), logs the end.
cat >"$dir/fake_test.sh" <<'EOF'
#!/usr/bin/env bash
echo "$1 start $(date +%s%N) ${KCONFORM_RERUN_ALONE:-unset} ${KCONFORM_GTEST_FILTER:-unset}" >>"$2"
sleep 0.3
echo "$1 end $(date +%s%N)" >>"$2"
EOF
chmod +x "$dir/fake_test.sh"
students=(alice malice 'c.d+e' cxdde bob)
tests=(values sanitizer.memcheck performance)
{
  echo "cmake_minimum_required(VERSION 3.20)"
  for s in "${students[@]}"; do
    for t in "${tests[@]}"; do
      echo "add_test(\"$s.$t\" \"$dir/fake_test.sh\" \"$s.$t\" \"$log\")"
      echo "set_tests_properties(\"$s.$t\" PROPERTIES RESOURCE_GROUPS \"gpus:1\")"
    done
  done
} >"$project/CTestTestfile.cmake"
cat >"$project/resources.json" <<'EOF'
{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 10}]}]}
EOF
: >"$project/students.tsv"
for s in "${students[@]}"; do
  mkdir -p "$dir/$s/run"
  printf '%s\t%s\n' "$s" "$dir/$s" >>"$project/students.tsv"
done
# alice: two cases of her values test (and one their process ran after them) and one of her memcheck
# run starved; and a test the project does not have. malice (which holds alice's name): nothing listed.
printf 'grade.values\tGrade/Small.A\tstarved\ngrade.values\tGrade/Large.B\tstarved\ngrade.values\tGrade/Large.C\tafter_starved\ngrade.sanitizer.memcheck\tGrade/Large.B\tstarved\ngrade.odd_sizes\tGrade/Odd.C\tstarved\n' \
  >"$dir/alice/run/memory_starved.tsv"
# c.d+e: its performance test starved. cxdde (which c.d+e matches as a regex): nothing listed. bob
# starved in values, but the runner killed one of his processes for device memory: his own hoard, not
# run again.
printf 'grade.performance\tGrade/Performance.Timed\tstarved\n' >"$dir/c.d+e/run/memory_starved.tsv"
printf 'grade.values\tGrade/Small.A\tstarved\ngrade.sanitizer.memcheck\tGrade/Small.A\tmemory_kill\n' \
  >"$dir/bob/run/memory_starved.tsv"

out=$("$script" "$project" "$project/resources.json" "$project/students.tsv" 2>&1)
status=$?
echo "$out"
[ $status -eq 0 ] || fail "exit $status"
ran=$(awk '$2 == "start" { print $1 }' "$log" 2>/dev/null | sort | paste -sd' ' -)
[ "$ran" = "alice.sanitizer.memcheck alice.values c.d+e.performance" ] ||
  fail "expected alice.sanitizer.memcheck, alice.values and c.d+e.performance to run again, once each; ran: ${ran:-nothing}"
given() { awk -v t="$1" '$1 == t && $2 == "start" { print $4, $5 }' "$log"; }
[ "$(given alice.values)" = "1 Grade/Small.A:Grade/Large.B:Grade/Large.C" ] ||
  fail "alice.values should run alone with its two starved cases and the one run after them: $(given alice.values)"
[ "$(given alice.sanitizer.memcheck)" = "1 Grade/Large.B" ] ||
  fail "alice.sanitizer.memcheck should run alone with its one starved case: $(given alice.sanitizer.memcheck)"
[ "$(given c.d+e.performance)" = "1 Grade/Performance.Timed" ] ||
  fail "c.d+e.performance should run alone with its starved case: $(given c.d+e.performance)"
# One at a time: each start comes after the previous end.
overlap=$(sort -k3,3n "$log" | awk '$2 == "start" && open { bad = 1 } $2 == "start" { open = 1 } $2 == "end" { open = 0 } END { print bad + 0 }')
[ "$overlap" = 0 ] || fail "tests ran again side by side: $(sort -k3,3n "$log" | tr '\n' ' ')"
for s in alice 'c.d+e' bob; do
  [ ! -e "$dir/$s/run/memory_starved.tsv" ] && [ -s "$dir/$s/run/memory_starved.first-run.tsv" ] ||
    fail "$s's list was not kept as memory_starved.first-run.tsv"
done
[ "$(cat "$dir/alice/run/memory_starved.rerun.tsv")" = "$(printf 'grade.values\tran\ngrade.sanitizer.memcheck\tran\ngrade.odd_sizes\tnot run: ctest ran no test of that name')" ] ||
  fail "alice's record: $(cat "$dir/alice/run/memory_starved.rerun.tsv")"
[ "$(cat "$dir/bob/run/memory_starved.rerun.tsv")" = "$(printf 'grade.values\tnot run: the runner killed 1 of its processes for device memory')" ] ||
  fail "bob's record: $(cat "$dir/bob/run/memory_starved.rerun.tsv")"
[ "$(cat "$dir/c.d+e/run/memory_starved.rerun.tsv")" = "$(printf 'grade.performance\tran')" ] ||
  fail "c.d+e's record: $(cat "$dir/c.d+e/run/memory_starved.rerun.tsv")"
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
[ "$(cat "$dir/alice/run/memory_starved.rerun.tsv")" = "$(printf "grade.values\tnot run: the phase's 0 s were spent")" ] ||
  fail "past the limit, alice's record: $(cat "$dir/alice/run/memory_starved.rerun.tsv")"

# Bad usage.
"$script" "$project" 2>/dev/null
[ $? -eq 2 ] || fail "a call without its three arguments was not refused with 2"

if [ $failures -gt 0 ]; then
  echo "FAILED: $failures check(s)"
  exit 1
fi
echo "rerun_memory_starved.sh: all checks passed"
