#!/usr/bin/env bash
# class_of_30.sh <out dir> [budget seconds, default 300]
#
# Issue 19's batch: a class of 30 reduction submissions of which 3 hang — a kernel that spins at every
# size (reduction/spins_every_kernel.cu), a host loop that ignores SIGTERM (host_loop_ignores_sigterm),
# a kernel that spins at one configuration (infinite_loop) — graded with scripts/grade.sh --batch on
# this machine's GPU(s). The other 27: every other reduction example (but the two that try to leave
# something behind on the host, below), and copies of the two correct ones as students. Checks that
# the whole batch is graded within the budget (wall time, builds included), that each hanging
# submission is graded `timeout`, and that every correct copy gets full
# marks beside them. Prints the wall time. Exit: 0 ok, 1 not, 77 no GPU.
set -uo pipefail
out=$1 budget=${2:-300}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# Side by side on a host of several GPUs (KCONFORM_PIN_TO_RESOURCE_GPU=1) this test grades on the GPU CTest
# handed it, beside the others on theirs; one at a time, its batch spreads over every GPU.
. "$root/ctest_config/pin_to_resource_gpu.sh" || { echo "FAILED: $root/ctest_config/pin_to_resource_gpu.sh is missing"; exit 2; }
pin_to_resource_gpu
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU on this machine (grading needs one)"
  case "${KCONFORM_REQUIRE_GPU:-}" in "" | 0) exit 77 ;; *) exit 1 ;; esac
fi
rm -rf "$out"
mkdir -p "$out/class"
# Every reduction example but those that try to leave a daemon or a file behind on the host (their
# sources name kc_daemon or KCONFORM_TAMPERED): grading.examples.gpu.reduction holds those, with the
# checks that look for what they leave, and this class may run beside it on another GPU.
for f in "$here"/reduction/*.cu; do
  grep -q -e kc_daemon -e KCONFORM_TAMPERED "$f" || ln -s "$f" "$out/class/$(basename "$f")"
done
i=0
while [ "$(ls "$out/class" | wc -l)" -lt 30 ]; do
  i=$((i + 1))
  ln -s "$here/reduction/correct.cu" "$out/class/student_$(printf %02d $i)_k3.cu"
  [ "$(ls "$out/class" | wc -l)" -lt 30 ] && ln -s "$here/reduction/atomic_full.cu" "$out/class/student_$(printf %02d $i)_atomic.cu"
done
started=$(date +%s)
"$root/scripts/grade.sh" --family reduction --batch "$out/class" --out "$out/grades" >"$out/grade.log" 2>&1 ||
  { echo "FAILED: grading the class did not work"; tail "$out/grade.log"; exit 1; }
wall=$(($(date +%s) - started))
field() { grep -oE "\"$2\":(\"[^\"]*\"|-?[0-9.eE+-]+)" "$1" | head -1 | sed -E "s/^\"$2\"://; s/\"//g"; }
failures=0
for hang in spins_every_kernel host_loop_ignores_sigterm infinite_loop; do
  verdict=$(field "$out/grades/$hang/summary.json" verdict)
  case ",$verdict," in *,timeout,*) ;; *) echo "FAILED: $hang graded '$verdict', expected timeout"; failures=$((failures + 1)) ;; esac
  echo "$hang: $verdict, $(field "$out/grades/$hang/summary.json" score) points, $(field "$out/grades/$hang/summary.json" seconds) s of units"
done
for s in "$out"/grades/student_*/summary.json; do
  [ "$(field "$s" score)" = 100 ] || { echo "FAILED: $(basename "$(dirname "$s")") scored $(field "$s" score) beside the hangs"; failures=$((failures + 1)); }
done
echo "class of $(ls "$out/class" | wc -l) (3 hang): graded in ${wall} s (budget ${budget} s) on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
[ "$wall" -le "$budget" ] || { echo "FAILED: the class took ${wall} s, past ${budget} s"; failures=$((failures + 1)); }
[ $failures -eq 0 ] || exit 1
echo "PASSED"
