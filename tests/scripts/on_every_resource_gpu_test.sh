#!/usr/bin/env bash
# ctest_config/on_every_resource_gpu.sh (issue 34: a perf unit judged on every GPU CTest hands it), with
# a fake command in place of the runner: each copy sees one GPU as its only resource group, gets its
# own name, all copies run at once, each line of output is marked with its GPU and goes out as it
# comes (a SIGKILL loses none of it), two groups on one GPU are refused, and the exit status follows
# the rule in the script's header.
#   on_every_resource_gpu_test.sh <ctest_config dir>
set -u
wrapper=$1/on_every_resource_gpu.sh
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# The fake unit: records what it saw, waits for its sibling (so the copies must run at once), exits
# with the code named for its GPU in $scratch/code.<k> (0 where none).
cat >"$scratch/unit.sh" <<'UNIT'
#!/usr/bin/env bash
dir=$1 name=$2
echo "$name count=$CTEST_RESOURCE_GROUP_COUNT group=${CTEST_RESOURCE_GROUP_0:-} gpus=$CTEST_RESOURCE_GROUP_0_GPUS other=${CTEST_RESOURCE_GROUP_1_GPUS:-none}" >"$dir/seen.$name"
touch "$dir/started.$name"
if [ "${WAIT_FOR:-}" != "" ]; then
  for _ in $(seq 100); do [ -e "$dir/started.$WAIT_FOR" ] && break; sleep 0.05; done
  [ -e "$dir/started.$WAIT_FOR" ] || echo "never saw $WAIT_FOR start" >>"$dir/seen.$name"
fi
echo "output of $name"
k=${name#u.gpu}
exit "$(cat "$dir/code.$k" 2>/dev/null || echo 0)"
UNIT
chmod +x "$scratch/unit.sh"

run() {  # run <expected status> <ids...>: the wrapper with a group per id; prints its output to $scratch/out
  local expected=$1; shift
  local env=(CTEST_RESOURCE_GROUP_COUNT=$#) i=0
  for id in "$@"; do env+=("CTEST_RESOURCE_GROUP_$i=gpus" "CTEST_RESOURCE_GROUP_${i}_GPUS=id:$id,slots:10"); i=$((i + 1)); done
  rm -f "$scratch"/seen.* "$scratch"/started.*
  env "${env[@]}" "$wrapper" "$scratch/unit.sh" "$scratch" "u.gpu@GPU@" >"$scratch/out" 2>&1
  local status=$?
  [ "$status" -eq "$expected" ] || fail "groups $*: exit $status, expected $expected"
}

# Two GPUs (ids 1 and 3): one copy each, both at once, each alone in its one group.
rm -f "$scratch"/code.*
WAIT_FOR=u.gpu3 run 0 1 3
for k in 1 3; do
  grep -qx "u.gpu$k count=1 group=gpus gpus=id:$k,slots:10 other=none" "$scratch/seen.u.gpu$k" ||
    fail "copy on GPU $k saw: $(cat "$scratch/seen.u.gpu$k" 2>/dev/null || echo nothing)"
done
grep -q "never saw" "$scratch"/seen.* && fail "the copies did not run at once"
grep -qx '\[gpu 1\] output of u.gpu1' "$scratch/out" || fail "GPU 1's output is not prefixed with its GPU"
grep -qx '\[gpu 3\] output of u.gpu3' "$scratch/out" || fail "GPU 3's output is not prefixed with its GPU"
[ "$(grep -c '^\[gpu [13]\] exit 0 ' "$scratch/out")" -eq 2 ] || fail "expected each copy's exit status in the output"

# A failure on one GPU fails the test, whatever the others did; the first failing GPU's status is kept.
echo 1 >"$scratch/code.3"; run 1 1 3
echo 77 >"$scratch/code.1"; echo 1 >"$scratch/code.3"; run 1 1 3
echo 2 >"$scratch/code.1"; echo 1 >"$scratch/code.3"; run 2 1 3
# Skipped on every GPU: skipped. Skipped on one beside a pass: passed.
echo 77 >"$scratch/code.1"; echo 77 >"$scratch/code.3"; run 77 1 3
echo 77 >"$scratch/code.1"; rm -f "$scratch/code.3"; run 0 1 3
rm -f "$scratch"/code.*

# No resource spec: once, as GPU 0, with the exit status passed through.
rm -f "$scratch"/seen.*
env -u CTEST_RESOURCE_GROUP_COUNT CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1 "$wrapper" "$scratch/unit.sh" "$scratch" "u.gpu@GPU@" >/dev/null 2>&1 ||
  fail "no resource spec: the command failed"
[ -e "$scratch/seen.u.gpu0" ] || fail "no resource spec: not run once as gpu0 ($(ls "$scratch"))"
echo 77 >"$scratch/code.0"
env -u CTEST_RESOURCE_GROUP_COUNT "$wrapper" "$scratch/unit.sh" "$scratch" "u.gpu@GPU@" >/dev/null 2>&1
[ $? -eq 77 ] || fail "no resource spec: the skip status was not passed through"
rm -f "$scratch"/code.*

# Two groups on one GPU (a spec whose GPUs have more slots than the build asked for) are refused.
CTEST_RESOURCE_GROUP_COUNT=2 CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:5 CTEST_RESOURCE_GROUP_1_GPUS=id:1,slots:5 \
  "$wrapper" "$scratch/unit.sh" "$scratch" "u.gpu@GPU@" >"$scratch/out" 2>&1
[ $? -eq 2 ] || fail "two groups on one GPU were not refused"
grep -q 'two resource groups on GPU 1' "$scratch/out" || fail "the refusal does not name the GPU: $(cat "$scratch/out")"

# Output goes out as it comes: what a copy printed before CTest's SIGKILL of the test's whole tree
# (its timeout) is in the test's output.
printf '#!/usr/bin/env bash\necho "early line"\nexec sleep 30\n' >"$scratch/slow.sh" && chmod +x "$scratch/slow.sh"
CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS=id:2,slots:10 setsid "$wrapper" "$scratch/slow.sh" >"$scratch/out" 2>&1 &
leader=$!
for _ in $(seq 50); do grep -q 'early line' "$scratch/out" && break; sleep 0.1; done
kill -KILL -- -"$leader" 2>/dev/null
wait "$leader" 2>/dev/null
grep -qx '\[gpu 2\] early line' "$scratch/out" || fail "a copy's output before a SIGKILL was lost: '$(cat "$scratch/out")'"

# A group that names no GPU is refused, not run on a guess.
CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS=slots:10 "$wrapper" true >/dev/null 2>&1
[ $? -eq 2 ] || fail "a group without an id was not refused"

[ $failures -eq 0 ] && echo "PASSED: on_every_resource_gpu.sh" || echo "$failures failure(s)"
[ $failures -eq 0 ]
