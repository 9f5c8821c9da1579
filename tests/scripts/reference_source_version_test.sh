#!/usr/bin/env bash
# ctest_config/reference_source_version.cmake on a scratch tree: the version changes when a source's
# content, the set of sources or the toolchain text changes, and not otherwise (then the header is
# left alone, so nothing rebuilds).
set -u
cmake_bin=$1 script=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
mkdir -p "$work/src/reference"
echo 'double reference(double x) { return x; }' >"$work/src/reference/a.cpp"
echo 'int generator() { return 4; }' >"$work/src/reference/b.hpp"
list() { printf '%s\n' "$@" >"$work/list.txt"; }
version() {  # version [toolchain]
  "$cmake_bin" -DROOT="$work/src" -DLIST="$work/list.txt" -DTOOLCHAIN="${1:-GNU 12 -O2}" -DOUT="$work/version.hpp" \
    -P "$script" || echo "the script failed"
  sed -n 's/.*KC_REFERENCE_SOURCE_VERSION "\(.*\)"/\1/p' "$work/version.hpp"
}
check() {  # check <what> <condition: same|different> <a> <b>
  if { [ "$2" = same ] && [ "$3" = "$4" ]; } || { [ "$2" = different ] && [ "$3" != "$4" ]; }; then echo "ok: $1"
  else echo "FAIL: $1: $3 vs $4 should be $2"; failures=$((failures + 1)); fi
}
list "$work/src/reference/a.cpp" "$work/src/reference/b.hpp"
first=$(version)
[ ${#first} -eq 64 ] || { echo "FAIL: not a SHA-256: '$first'"; failures=$((failures + 1)); }
touch -d '2000-01-01' "$work/version.hpp"
again=$(version)
check "nothing changed" same "$first" "$again"
if [ "$(stat -c %Y "$work/version.hpp")" = "$(date -d '2000-01-01' +%s)" ]; then echo "ok: the header was left alone"
else echo "FAIL: the header was rewritten with the same version"; failures=$((failures + 1)); fi
list "$work/src/reference/b.hpp" "$work/src/reference/a.cpp"
check "the list in another order" same "$first" "$(version)"
echo 'double reference(double x) { return x + 0.0; }' >"$work/src/reference/a.cpp"
edited=$(version)
check "a reference's source edited" different "$first" "$edited"
list "$work/src/reference/a.cpp"
check "a source left out" different "$edited" "$(version)"
list "$work/src/reference/a.cpp" "$work/src/reference/b.hpp"
check "another toolchain" different "$edited" "$(version "GNU 12 -O2 -ffast-math")"
exit $failures
