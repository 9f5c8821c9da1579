#!/usr/bin/env bash
# The commit a run's reports name: the checkout's HEAD, and how many of its files differ from it when
# some do. A copy of the tree can carry edits its .git does not know of (the device machine's copy kept
# an older HEAD under newer files, and its summary named the older commit as the run's): a file changed,
# staged, removed, or new and not ignored (.gitignore keeps build/ and reports/ out) is counted.
#   scripts/tree_commit.sh [checkout]    (default: this script's checkout)
# Prints "c681ef4", "c681ef4 with 3 files changed", or "unknown (not a git checkout; set
# KCONFORM_COMMIT)". Callers take KCONFORM_COMMIT first where it is set.
set -u
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
head=$(git -C "$dir" rev-parse --short HEAD 2>/dev/null) || {
  echo 'unknown (not a git checkout; set KCONFORM_COMMIT)'
  exit 0
}
changed=$(git -C "$dir" status --porcelain --untracked-files=all 2>/dev/null | wc -l)
case "$changed" in
  0) echo "$head" ;;
  1) echo "$head with 1 file changed" ;;
  *) echo "$head with $changed files changed" ;;
esac
