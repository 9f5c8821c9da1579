# Sourced by run_gpu_suite.sh (and tests/scripts/progress_line_test.sh): start and stop the progress
# line (scripts/progress_line.sh) beside a step of the run. Needs $out (the report folder) set.
#
#   watch_start <phase> <log> [last seconds] [costs file] [parallel]
#   watch_stop
#
# The done file goes 4th, where progress_line.sh reads it: appended after the optional arguments,
# it once took a last-run time's place, and a second whole run in one build folder waited for the
# watcher forever.
watcher=
watch_start() {
  rm -f "$out/.phase-done"
  "$(dirname "${BASH_SOURCE[0]}")/progress_line.sh" "$1" "$2" "$out" "$out/.phase-done" "${3:-}" "${4:-}" "${5:-}" &
  watcher=$!
}
watch_stop() {
  touch "$out/.phase-done"
  wait "$watcher" 2>/dev/null
  watcher=
  rm -f "$out/.phase-done"
}
