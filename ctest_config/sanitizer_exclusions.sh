#!/usr/bin/env bash
# sanitizer_exclusions.sh: the compute-sanitizer arguments, one per line, that keep the tool off the
# checker's own kernels (ctest_config/sanitizer_own_kernels.txt) in the suite's sanitizer runs
# (run_sanitizer.sh).
#
# Why: a sanitizer run checks the kernel under test. Around each launch a case also runs the checker's
# kernels (the unchanged-input comparison after it, the schedule perturbation's spin before it), and
# the tool charged a hazard in them to the case's kernel; instrumented, they also took nearly half of
# racecheck's time: over matmul's 336 sanitizer cases 7.9-8.1 s alone on an H200, 4.3 s with two of
# them excluded, and the 24 clean sanitizer runs one at a time 49.3 s and 41.7 s (e4954b4,
# docs/architecture.md, "The checker's kernels under the sanitizers"). They still run; only the
# instrumentation is left out.
#
# Each name is matched as its mangled form's length-prefixed identifier (kns=17count_differences), so
# a kernel whose name merely contains one (count_differences_v2) is still checked.
#
# Nothing under grading (KCONFORM_TOOL_WRAPS_EXECUTOR=1, scripts/grade.sh): there the tool wraps the
# submission's executor, which runs none of these, and a submission that named its kernel spin_for
# would otherwise run unchecked.
set -u
[ "${KCONFORM_TOOL_WRAPS_EXECUTOR:-}" = 1 ] && exit 0
list="$(dirname "${BASH_SOURCE[0]}")/sanitizer_own_kernels.txt"
[ -r "$list" ] || { echo "sanitizer_exclusions.sh: cannot read $list" >&2; exit 1; }
while IFS= read -r name; do
  case "$name" in "" | "#"*) continue ;; esac
  [[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "sanitizer_exclusions.sh: '$name' is not an identifier ($list)" >&2; exit 1; }
  printf '%s\n' --kernel-name-exclude "kns=${#name}${name}"
done <"$list"
