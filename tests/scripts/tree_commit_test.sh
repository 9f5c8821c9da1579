#!/usr/bin/env bash
# scripts/tree_commit.sh on a scratch checkout: the short HEAD when the tracked files are that commit's,
# the count of changed tracked files when they are not (an untracked file is not counted: build
# outputs and reports are untracked), and "unknown" outside a checkout.
#   tree_commit_test.sh <scripts dir>
set -u
scripts=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
expect() {  # expect <what> <got> <want>
  if [ "$2" = "$3" ]; then echo "ok: $1: $2"; else echo "FAILED: $1: got '$2', expected '$3'"; failures=$((failures + 1)); fi
}
repo=$work/repo
mkdir -p "$repo" && cd "$repo" || exit 1
git init -q . && git config user.email t@t && git config user.name t
printf 'a\n' >a.txt && printf 'b\n' >b.txt && git add a.txt b.txt && git commit -qm one
head=$(git rev-parse --short HEAD)
expect "clean" "$("$scripts/tree_commit.sh" "$repo")" "$head"
printf 'new\n' >untracked.txt
expect "an untracked file" "$("$scripts/tree_commit.sh" "$repo")" "$head"
printf 'a2\n' >a.txt
expect "one file edited" "$("$scripts/tree_commit.sh" "$repo")" "$head with 1 tracked file changed"
rm b.txt
expect "one edited, one removed" "$("$scripts/tree_commit.sh" "$repo")" "$head with 2 tracked files changed"
mkdir -p "$work/plain"
expect "not a checkout" "$("$scripts/tree_commit.sh" "$work/plain")" "unknown (not a git checkout; set KCONFORM_COMMIT)"
[ "$failures" = 0 ] || exit 1
