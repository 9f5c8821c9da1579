#!/usr/bin/env bash
# check_sanitizer_exclusions.sh <source dir> <build dir>: the patterns that keep compute-sanitizer off
# the checker's kernels (sanitizer_exclusions.sh) match the checker's kernels and nothing else. The tool
# matches a pattern anywhere in a kernel's mangled name, so this matches them the same way, against the
# mangled name of every kernel the build compiles (read with nm from each kernel's host stub,
# `__device_stub__<mangled name>`, in the build's libraries and test programs). Fails if
#   - a kernel fixtures/ compiles matches no pattern (it would be instrumented and charged to the case);
#   - a pattern matches no kernel of fixtures/ (a stale name, waiting for some other kernel to match);
#   - a pattern matches any other kernel (a kernel under test the tool would never look at);
#   - the arguments are not one `--kernel-name-exclude kns=<length><name>` pair per listed name, or
#     grading gets any (KCONFORM_TOOL_WRAPS_EXECUTOR=1: there a submission names its kernels).
# Kernels in libraries the build does not compile (cuBLAS's) are not read.
set -u
src=$1 build=$2
here=$(dirname "${BASH_SOURCE[0]}")
list="$here/sanitizer_own_kernels.txt"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
command -v nm >/dev/null || { echo "FAILED: nm (binutils) is not installed"; exit 1; }

# Mangled kernel names (with the stub's own parameters after them, which only widen a match).
kernels_in() {
  for f in "$@"; do nm --defined-only "$f" 2>/dev/null; done |
    grep -oE '__device_stub__Z[A-Za-z0-9_]+' | sed 's/^__device_stub__/_/' | sort -u
}
checker=$(kernels_in "$build/fixtures/libkconform_fixtures.a")
mapfile -t programs < <(find "$build" -name '*.a'; find "$build/tests" -maxdepth 1 -type f -perm -u+x)
others=$(comm -23 <(kernels_in "${programs[@]}") <(echo "$checker"))
names=$(grep -vE '^[[:space:]]*(#|$)' "$list")

# nm must see what the tool will: every kernel fixtures/ and kernels/ define, by the name they are written with.
written() { grep -rhoE '__global__[^(]*[[:space:]]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(' --include='*.cu' --include='*.cuh' "$1" |
  sed -E 's/[[:space:]]*\($//; s/.*[[:space:]]//' | grep -v '^__launch_bounds__$' | sort -u; }
for name in $(written "$src/fixtures"); do
  grep -q "[0-9]$name" <<<"$checker" || fail "nm finds no kernel $name in $build/fixtures/libkconform_fixtures.a (not built, or this check no longer reads stubs)"
done
for name in $(written "$src/kernels"); do
  grep -q "[0-9]$name" <<<"$others" || fail "nm finds no kernel $name of $src/kernels in the build (not built, or this check no longer reads stubs)"
done
[ "$(grep -c . <<<"$others")" -ge 50 ] || fail "only $(grep -c . <<<"$others") kernels besides the checker's found in $build"

patterns=()
while IFS= read -r name; do
  pattern="${#name}$name"
  patterns+=("$pattern")
  grep -qF "$pattern" <<<"$checker" || fail "no kernel of fixtures/ matches kns=$pattern ($name is stale in $list)"
  clash=$(grep -F "$pattern" <<<"$others" | head -3)
  [ -z "$clash" ] || fail "kns=$pattern would leave other kernels unchecked: $(echo $clash)"
done <<<"$names"
while IFS= read -r kernel; do
  matched=0
  for pattern in "${patterns[@]}"; do [[ "$kernel" == *"$pattern"* ]] && matched=1 && break; done
  [ $matched -eq 1 ] || fail "fixtures/' kernel $kernel matches no name in $list"
done <<<"$checker"

if ! args=$("$here/sanitizer_exclusions.sh"); then
  fail "sanitizer_exclusions.sh failed"
else
  expected=$(for pattern in "${patterns[@]}"; do printf '%s\n' --kernel-name-exclude "kns=$pattern"; done)
  [ "$(paste - - <<<"$args")" = "$(paste - - <<<"$expected")" ] ||
    fail "sanitizer_exclusions.sh printed $(echo $args), not --kernel-name-exclude kns=<length><name> for each listed name in order"
fi
graded=$(KCONFORM_TOOL_WRAPS_EXECUTOR=1 "$here/sanitizer_exclusions.sh")
[ -z "$graded" ] || fail "sanitizer_exclusions.sh excludes kernels under grading: $(echo $graded)"

[ $failures -eq 0 ] || exit 1
echo "PASSED: ${#patterns[@]} names match the checker's $(grep -c . <<<"$checker") kernel symbols and none of the other $(grep -c . <<<"$others") kernel symbols the build compiles; none under grading"
