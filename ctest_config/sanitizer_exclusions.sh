#!/usr/bin/env bash
# sanitizer_exclusions.sh: the compute-sanitizer arguments, one per line, that leave the checker's own
# kernels (sanitizer_own_kernels.txt) uninstrumented in the suite's sanitizer runs (run_sanitizer.sh).
# They still run. A sanitizer run checks the kernel under test: a hazard in a checker kernel was
# charged to it, and instrumenting them cost racecheck a quarter of its time (docs/architecture.md,
# "The checker's kernels under the sanitizers").
#
# compute-sanitizer's kns= matches a substring of the whole mangled name; each name goes in as its
# length-prefixed identifier (kns=17count_differences), so count_differences_v2 does not match, and
# check_sanitizer_exclusions.sh checks the build's kernels (nm) against the patterns.
#
# Nothing under grading (KCONFORM_TOOL_WRAPS_EXECUTOR=1, scripts/grade.sh): there the tool wraps the
# submission's executor, which runs none of these, and a submission chooses its kernels' names.
set -u
[ "${KCONFORM_TOOL_WRAPS_EXECUTOR:-}" = 1 ] && exit 0
list="$(dirname "${BASH_SOURCE[0]}")/sanitizer_own_kernels.txt"
[ -r "$list" ] || { echo "sanitizer_exclusions.sh: cannot read $list" >&2; exit 1; }
while IFS= read -r name; do
  case "$name" in "" | "#"*) continue ;; esac
  [[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "sanitizer_exclusions.sh: '$name' is not an identifier ($list)" >&2; exit 1; }
  printf '%s\n' --kernel-name-exclude "kns=${#name}${name}"
done <"$list"
