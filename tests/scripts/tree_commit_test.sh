#!/usr/bin/env bash
# scripts/tree_commit.sh on a scratch checkout: the short HEAD when the files are that commit's, and
# the count of files that differ when some do: edited, staged, removed, new and not ignored (an
# ignored file, like build/ in this repository, is not counted); "unknown" outside a checkout.
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
printf 'a\n' >a.txt && printf 'b\n' >b.txt && printf 'c\n' >c.txt && printf 'build/\n' >.gitignore
git add a.txt b.txt c.txt .gitignore && git commit -qm one
head=$(git rev-parse --short HEAD)
expect "clean" "$("$scripts/tree_commit.sh" "$repo")" "$head"
mkdir -p build && printf 'o\n' >build/out.o
expect "an ignored file" "$("$scripts/tree_commit.sh" "$repo")" "$head"
printf 'a2\n' >a.txt
expect "one file edited" "$("$scripts/tree_commit.sh" "$repo")" "$head with 1 file changed"
printf 'c2\n' >c.txt && git add c.txt
expect "one edited, one staged" "$("$scripts/tree_commit.sh" "$repo")" "$head with 2 files changed"
rm b.txt
mkdir -p new && printf 'n\n' >new/file.txt
expect "edited, staged, removed, one new in a new folder" "$("$scripts/tree_commit.sh" "$repo")" "$head with 4 files changed"
mkdir -p "$work/plain"
expect "not a checkout" "$("$scripts/tree_commit.sh" "$work/plain")" "unknown (not a git checkout; set KCONFORM_COMMIT)"
[ "$failures" = 0 ] || exit 1
