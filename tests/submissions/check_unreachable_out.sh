#!/usr/bin/env bash
# grade.sh, run as root, starts each submission's executor as uid 65534 (grading/executor/sandbox.hpp),
# which must reach the library and the tool's report channel under --out. An --out below a folder
# others cannot search (e.g. /root, mode 0700) failed every case on an H100 ("could not load the
# submission: Permission denied") and scored a correct submission 10. grade.sh must refuse such a
# folder before grading anyone, naming the folder in the way, and accept the same place once it is
# searchable. CPU only: the refusal comes before any GPU work; the accepted run stops at the build of
# a submission that does not compile.
#   check_unreachable_out.sh <work dir>
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:?usage: check_unreachable_out.sh <work dir>}
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "not run as root: the executor keeps the caller's uid, there is no other uid to reach"; exit 77; }
. "$root/scripts/sandbox_reach.sh"
rm -rf "$work" && mkdir -p "$work/private" && chmod 0700 "$work/private" || fail "cannot make $work/private"
# The accepted half needs the folders above the work folder (the build's) searchable by uid 65534.
if blocked=$(sandbox_uid_blocked_at "$work/private") && [ -n "$blocked" ]; then
  echo "the work folder $work is itself out of the sandbox's reach ($blocked): nothing to compare against"
  rm -rf "$work"
  exit 77
fi
grade() {
  "$root/scripts/grade.sh" --family reduction --submission "$root/tests/submissions/reduction/compile_error.cu" \
    --out "$work/private/out" --seed 1 2>&1
}
said=$(grade); status=$?
[ $status = 2 ] || fail "grade.sh exited $status for an --out under a mode-0700 folder (expected 2):"$'\n'"$said"
grep -q "out of reach of the sandbox's uid 65534" <<<"$said" || fail "no word on the sandbox's reach:"$'\n'"$said"
grep -qF "$work/private has mode 700" <<<"$said" || fail "the folder in the way is not named:"$'\n'"$said"
[ ! -e "$work/private/out/summary.json" ] || fail "a grade was written though grading was refused"

chmod 0711 "$work/private"
said=$(grade); status=$?
grep -q "out of reach" <<<"$said" && fail "refused a searchable folder:"$'\n'"$said"
grep -q '"verdict":"compile_error"' "$work/private/out/summary.json" 2>/dev/null ||
  fail "the searchable --out was not graded (exit $status):"$'\n'"$said"
sandbox_uid_can -x "$work/private/out" || fail "grade.sh left its --out unsearchable by the sandbox's uid"
[ $(( 8#$(stat -c %a "$work/private/out") & 4 )) = 0 ] || fail "grade.sh left its --out listable by others"
echo "PASS: an unreachable --out is refused before grading, naming $work/private; a searchable one is graded"
rm -rf "$work"
