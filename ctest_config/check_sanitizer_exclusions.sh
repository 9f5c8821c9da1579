#!/usr/bin/env bash
# check_sanitizer_exclusions.sh <source dir>: the kernels the suite's sanitizer runs leave uninstrumented
# (ctest_config/sanitizer_own_kernels.txt, sanitizer_exclusions.sh) are the checker's and only the
# checker's. Fails if
#   - the list is not exactly the __global__ functions fixtures/ defines (a new checker kernel would be
#     instrumented and charged to the case's kernel; a stale name is a hole waiting for a kernel);
#   - a kernel under test (kernels/, the known-bad ones included) bears a listed name: the tool would
#     never look at it;
#   - the arguments are not one length-prefixed exclusion per name, or grading gets any
#     (KCONFORM_TOOL_WRAPS_EXECUTOR=1: there a submission chooses its kernels' names).
set -u
src=$1
here=$(dirname "${BASH_SOURCE[0]}")
list="$here/sanitizer_own_kernels.txt"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# __global__ [template <...>] void [__launch_bounds__(...)] name(   (one declaration a line, as written here)
kernels_in() {
  grep -rhoE '__global__[[:space:]]+void[[:space:]]+(__launch_bounds__\([^)]*\)[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*' \
    --include='*.cu' --include='*.cuh' --include='*.hpp' --include='*.h' "$@" | awk '{print $NF}' | sort -u
}
listed=$(grep -vE '^[[:space:]]*(#|$)' "$list" | sort -u)
fixture_kernels=$(kernels_in "$src/fixtures")
tested_kernels=$(kernels_in "$src/kernels")
[ -n "$fixture_kernels" ] || fail "found no __global__ function in $src/fixtures (the pattern no longer reads them)"
[ "$(echo "$tested_kernels" | grep -c .)" -ge 20 ] || fail "found $(echo "$tested_kernels" | grep -c .) kernels under $src/kernels (the pattern no longer reads them)"

unlisted=$(comm -23 <(echo "$fixture_kernels") <(echo "$listed"))
stale=$(comm -13 <(echo "$fixture_kernels") <(echo "$listed"))
[ -z "$unlisted" ] || fail "fixtures/ defines kernel(s) not in $list: $(echo $unlisted)"
[ -z "$stale" ] || fail "$list names kernel(s) fixtures/ does not define: $(echo $stale)"
clash=$(comm -12 <(echo "$tested_kernels") <(echo "$listed"))
[ -z "$clash" ] || fail "kernel(s) under test bear a name the sanitizer runs exclude: $(echo $clash)"

if ! args=$("$here/sanitizer_exclusions.sh"); then
  fail "sanitizer_exclusions.sh failed"
else
  expected=$(while IFS= read -r name; do printf '%s\n' --kernel-name-exclude "kns=${#name}${name}"; done <<<"$listed")
  [ "$(sort <<<"$args")" = "$(sort <<<"$expected")" ] ||
    fail "sanitizer_exclusions.sh printed $(echo $args), not one --kernel-name-exclude kns=<length><name> per listed name"
fi
graded=$(KCONFORM_TOOL_WRAPS_EXECUTOR=1 "$here/sanitizer_exclusions.sh")
[ -z "$graded" ] || fail "sanitizer_exclusions.sh excludes kernels under grading: $(echo $graded)"

[ $failures -eq 0 ] || exit 1
echo "PASSED: $(echo "$listed" | grep -c .) checker kernels excluded, exactly fixtures/'s; none of the $(echo "$tested_kernels" | grep -c .) kernels under test among them; none under grading"
