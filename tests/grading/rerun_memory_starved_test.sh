#!/usr/bin/env bash
# rerun_memory_starved_test.sh <scripts/rerun_memory_starved.sh> <scratch dir>
#
# grade.sh's last phase on a stand-in CTest project (no GPU, no runner): each test appends its start and
# end to a log, and the students' starved lists are written as the runner writes them. Checks that
#   - exactly the listed tests run again (a student without a list, a test of a listed student that
#     was not listed, and every test of a student whose own process the runner killed for device
#     memory, do not), each once, one at a time;
#   - student names are matched literally (a name with regex characters, and a name it would match
#     as a pattern);
#   - the test's hung cases of the first run leave the student's hang budget, the others stay;
#   - each list is kept as memory_starved.first-run.tsv, and a second call runs nothing.
set -u
script=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

project="$dir/project"
mkdir -p "$project"
log="$dir/ran.log"
# A test: logs "<name> start <ns>", sleeps a little (so two running at once would overlap), logs the end.
cat >"$dir/fake_test.sh" <<'EOF'
#!/usr/bin/env bash
echo "$1 start $(date +%s%N)" >>"$2"
sleep 0.3
echo "$1 end $(date +%s%N)" >>"$2"
EOF
chmod +x "$dir/fake_test.sh"
students=(alice 'c.d+e' cxd+e bob)
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
# alice: two cases of her values test and one of her memcheck run starved; her hang budget holds a hung
# case of each of those and one of her odd_sizes run alone (not run again).
printf 'grade.values\tGrade/Small.A\tstarved\ngrade.values\tGrade/Large.B\tstarved\ngrade.sanitizer.memcheck\tGrade/Large.B\tstarved\n' \
  >"$dir/alice/run/memory_starved.tsv"
printf 'grade.values\tGrade/Small.H\t10\ngrade.odd_sizes\tGrade/Odd.H\t12\ngrade.sanitizer.memcheck\tGrade/Large.H\t12\n' \
  >"$dir/alice/run/hangs.tsv"
# c.d+e: its performance test starved. cxd+e (which c.d+e matches as a regex): nothing listed. bob
# starved in values, but the runner killed one of his processes for device memory: his own hoard, not
# run again.
printf 'grade.performance\tGrade/Performance.Timed\tstarved\n' >"$dir/c.d+e/run/memory_starved.tsv"
printf 'grade.values\tGrade/Small.A\tstarved\ngrade.sanitizer.memcheck\tGrade/Small.A\tmemory_kill\n' \
  >"$dir/bob/run/memory_starved.tsv"

out=$("$script" "$project" "$project/resources.json" "$project/students.tsv")
status=$?
echo "$out"
[ $status -eq 0 ] || fail "exit $status"
ran=$(awk '$2 == "start" { print $1 }' "$log" 2>/dev/null | sort | paste -sd' ' -)
[ "$ran" = "alice.sanitizer.memcheck alice.values c.d+e.performance" ] ||
  fail "expected alice.sanitizer.memcheck, alice.values and c.d+e.performance to run again, once each; ran: ${ran:-nothing}"
# One at a time: each start comes after the previous end.
overlap=$(sort -k3,3n "$log" | awk '$2 == "start" && open { bad = 1 } $2 == "start" { open = 1 } $2 == "end" { open = 0 } END { print bad + 0 }')
[ "$overlap" = 0 ] || fail "tests ran again side by side: $(sort -k3,3n "$log" | tr '\n' ' ')"
kept=$(cut -f1,2 "$dir/alice/run/hangs.tsv" | paste -sd' ' -)
[ "$kept" = "$(printf 'grade.odd_sizes\tGrade/Odd.H')" ] ||
  fail "alice's hang budget should keep odd_sizes' hang alone: $(cat "$dir/alice/run/hangs.tsv")"
for s in alice 'c.d+e' bob; do
  [ ! -e "$dir/$s/run/memory_starved.tsv" ] && [ -s "$dir/$s/run/memory_starved.first-run.tsv" ] ||
    fail "$s's list was not kept as memory_starved.first-run.tsv"
done
case "$out" in *"3 test(s) again"*) ;; *) fail "the output does not say how many tests ran again: $out" ;; esac
case "$out" in *"not running bob's tests again"*"killed 1 "*) ;; *) fail "the output does not say why bob's tests did not run again: $out" ;; esac

# Nothing listed any more: a second call runs nothing and says nothing.
: >"$log"
out=$("$script" "$project" "$project/resources.json" "$project/students.tsv")
[ $? -eq 0 ] && [ -z "$out" ] && [ ! -s "$log" ] || fail "a call with no list ran something: $out $(cat "$log")"
# Bad usage.
"$script" "$project" 2>/dev/null
[ $? -eq 2 ] || fail "a call without its three arguments was not refused with 2"

if [ $failures -gt 0 ]; then
  echo "FAILED: $failures check(s)"
  exit 1
fi
echo "rerun_memory_starved.sh: all checks passed"
