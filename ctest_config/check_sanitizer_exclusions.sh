#!/usr/bin/env bash
# check_sanitizer_exclusions.sh <source dir> <build dir> <sanitizer program>...: the patterns that keep
# compute-sanitizer off the checker's kernels (sanitizer_exclusions.sh) match the checker's kernels and
# nothing else. The tool matches a pattern anywhere in a kernel's mangled name, so this matches them the
# same way, against the mangled name of every kernel in the build's libraries, its test programs and
# the programs the sanitizer runs execute (CMake names them), read with nm from each kernel's host stub
# (`__device_stub__<mangled name>`, or the stub's statics where a template's stub was inlined). Fails if
#   - a sanitizer program is missing or nm reads no kernel in it, or nm misses a kernel that fixtures/
#     or kernels/ writes (`__global__ void name(`: this check would be reading nothing);
#   - a kernel fixtures/ compiles matches no pattern (it would be instrumented and charged to the case);
#   - a pattern matches no kernel of fixtures/ (a stale name, waiting for some other kernel to match);
#   - a pattern matches any other kernel (a kernel under test the tool would never look at);
#   - the arguments are not one `--kernel-name-exclude kns=<length><name>` pair per listed name, in
#     order, or grading gets any (KCONFORM_TOOL_WRAPS_EXECUTOR=1: there a submission names its kernels).
# Kernels in libraries the build does not compile (cuBLAS's) are not read.
set -u
export LC_ALL=C  # sort and comm alike
src=$1 build=$2
shift 2
here=$(dirname "${BASH_SOURCE[0]}")
list="$here/sanitizer_own_kernels.txt"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
command -v nm >/dev/null || { echo "FAILED: nm (binutils) is not installed"; exit 1; }
[ $# -gt 0 ] || { echo "FAILED: no sanitizer program named (tests/CMakeLists.txt passes them)"; exit 1; }

# Mangled kernel names, one a kernel (the stub's own parameters may follow, which only widen a match).
kernels_in() {
  for f in "$@"; do nm --defined-only "$f" 2>/dev/null; done |
    grep -oE '__device_stub__Z[A-Za-z0-9_]+' | sed -E 's/^__device_stub__/_/; s/E(5__tmp|8__handle)$//' | sort -u
}
count() { grep -c . <<<"$1"; }
checker=$(kernels_in "$build/fixtures/libkconform_fixtures.a")
for program in "$@"; do
  [ -f "$program" ] || { fail "sanitizer program $program is not built"; continue; }
  [ -n "$(comm -23 <(kernels_in "$program") <(echo "$checker"))" ] || fail "nm reads no kernel under test in $program"
done
mapfile -t programs < <(find "$build" -name '*.a'; find "$build/tests" -maxdepth 1 -type f -perm -u+x)
others=$(comm -23 <(kernels_in "${programs[@]}" "$@") <(echo "$checker"))
names=$(grep -vE '^[[:space:]]*(#|$)' "$list")

# The kernels as written, `__global__ [static] void [__launch_bounds__(...)] name(` on one line.
written() {
  grep -rhE --include='*.cu' --include='*.cuh' '__global__' "$1" | grep -vE '^[[:space:]]*(//|\*)' |
    sed -nE 's/.*__global__[[:space:]]+(static[[:space:]]+)?void[[:space:]]+(__launch_bounds__\([^)]*\)[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(.*/\3/p' |
    sort -u
}
for name in $(written "$src/fixtures"); do
  grep -q "[0-9]$name" <<<"$checker" || fail "nm finds no kernel $name in $build/fixtures/libkconform_fixtures.a"
done
for name in $(written "$src/kernels"); do
  grep -q "[0-9]$name" <<<"$others" || fail "nm finds no kernel $name of $src/kernels in $build"
done

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
echo "PASSED: ${#patterns[@]} names match the checker's $(count "$checker") kernels and none of the other $(count "$others") in this build's libraries and test programs ($# run under the sanitizers); none under grading"
