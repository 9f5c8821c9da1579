#!/usr/bin/env bash
# check_examples.sh <cpu|gpu> <out dir> [family,family,...]
#
# Grades the example submissions of tests/submissions/<family>/ with scripts/grade.sh --batch (one
# batch per family, so the batch form, its class CSV and the generated CTest project are what is
# tested) and checks each against expected.tsv: the score within its range, the verdict naming the
# expected kind. `cpu` grades the examples that need no GPU (they never get past the build: compile
# error, missing entry point, wrong signature); `gpu` grades every example, then replays the
# hard-coded one with the seed its answers were recorded under, which must score more than the
# fresh seed did (the fresh seed is what catches it). Exit: 0 all as expected, 1 a mismatch, 77 `gpu`
# without a GPU (CTest's skip). The families are those of expected.tsv (all of them, or the ones the
# third argument names: CTest runs one GPU test per family). KCONFORM_GRADE_SUITE_BUILD names the suite's build (CTest passes it).
# After every batch (issue 32: a submission runs in a sandboxed executor) nothing a submission started
# may still live, and nothing it wrote may lie outside its scratch folder: a live process named
# kc_daemon (reduction/detached_daemon.cu's), /tmp/kc_daemon_alive (which that daemon appends to), or
# a file named KCONFORM_TAMPERED (reduction/writes_into_neighbours.cu makes one in every folder it
# can write) under the out folder, the suite's build, the repository, /tmp or /dev/shm fails the check
# (a test that grades neither example skips this: watch_leftovers below).
set -uo pipefail
mode=$1 out=$2 only_families=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# Side by side on a host of several GPUs (KCONFORM_PIN_TO_RESOURCE_GPU=1) this test grades on the GPU CTest
# handed it, beside the others on theirs; one at a time, its batch spreads over every GPU.
. "$root/ctest_config/pin_to_resource_gpu.sh" || { echo "FAILED: $root/ctest_config/pin_to_resource_gpu.sh is missing"; exit 2; }
pin_to_resource_gpu
if [ "$mode" = gpu ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU on this machine (grading the examples needs one)"
  case "${KCONFORM_REQUIRE_GPU:-}" in "" | 0) exit 77 ;; *) exit 1 ;; esac
fi
rm -rf "$out"
mkdir -p "$out"

field() {  # field <summary.json> <key>: a top-level string or number
  grep -oE "\"$2\":(\"[^\"]*\"|-?[0-9.eE+-]+)" "$1" | head -1 | sed -E "s/^\"$2\"://; s/^\"//; s/\"$//"
}

failures=0

# ---- what no submission may leave behind (issue 32) ----
suite=${KCONFORM_GRADE_SUITE_BUILD:-$root/build/$(nvidia-smi -L >/dev/null 2>&1 && echo gpu || echo ci)}
daemon_marker=/tmp/kc_daemon_alive tamper_marker=KCONFORM_TAMPERED
tamper_markers() {  # every file named KCONFORM_TAMPERED where no submission may write
  { find "$out" "$suite" -name "$tamper_marker"
    find "$root" -maxdepth 2 -name "$tamper_marker"
    find /tmp /dev/shm -maxdepth 2 -name "$tamper_marker"
    find "${HOME:-/nonexistent}" -maxdepth 1 -name "$tamper_marker"
  } 2>/dev/null | sort -u
}
# These checks concern the examples that try to leave a daemon or a marker behind (their sources name
# kc_daemon or KCONFORM_TAMPERED: reduction's detached_daemon.cu and writes_into_neighbours.cu). A test
# that grades none of them skips them: on a host of several GPUs the family tests run side by side
# (ctest_config/pin_to_resource_gpu.sh), and another family's check would see reduction's daemon alive
# in the middle of its own case, or remove a marker before reduction's check could find it.
watch_leftovers=0
while IFS=$'\t' read -r fam example needs _; do
  [ -z "$only_families" ] || case ",$only_families," in *",$fam,"*) ;; *) continue ;; esac
  [ "$mode" = gpu ] || [ "$needs" = cpu ] || continue
  grep -q -e kc_daemon -e "$tamper_marker" "$here/$fam/$example.cu" 2>/dev/null && watch_leftovers=1
done < <(grep -v '^#' "$here/expected.tsv")
# Left behind by an earlier run: removed, so that what is found after a batch is that batch's.
[ $watch_leftovers = 1 ] && rm -f "$daemon_marker"
[ $watch_leftovers = 1 ] && tamper_markers | while read -r marker; do rm -f "$marker"; done
if [ $watch_leftovers = 1 ] && { [ -e "$daemon_marker" ] || [ -n "$(tamper_markers)" ]; }; then
  echo "FAILED: an earlier run left files this check cannot remove (another user's: a submission wrote them as its" \
    "sandbox's user); remove them and run again:"
  { [ ! -e "$daemon_marker" ] || echo "$daemon_marker"; tamper_markers; } | head -5 | sed 's/^/    /'
  exit 1
fi
after_batch() {  # after_batch <what was graded>
  local pid comm state found
  [ $watch_leftovers = 1 ] || return 0
  for pid in /proc/[0-9]*; do
    comm=$(cat "$pid/comm" 2>/dev/null) || continue
    [ "$comm" = kc_daemon ] || continue
    state=$(sed -E 's/^.*\) (.).*$/\1/' "$pid/stat" 2>/dev/null)
    [ "$state" != Z ] || continue  # ended, not yet reaped
    echo "FAILED: after grading $1, process ${pid#/proc/} (kc_daemon, uid $(awk '/^Uid:/ { print $2 }' "$pid/status" 2>/dev/null))" \
      "is still alive: a submission's process outlived its grading (killed, so the batches after it run without it)"
    kill -KILL "${pid#/proc/}" 2>/dev/null
    failures=$((failures + 1))
  done
  if [ -e "$daemon_marker" ]; then
    echo "FAILED: after grading $1, $daemon_marker exists ($(wc -l <"$daemon_marker") lines): a submission's process wrote" \
      "outside its scratch folder, or lived on after its grading"
    rm -f "$daemon_marker"
    failures=$((failures + 1))
  fi
  found=$(tamper_markers)
  if [ -n "$found" ]; then
    echo "FAILED: after grading $1, $(echo "$found" | wc -l) file(s) named $tamper_marker: a submission wrote outside its" \
      "scratch folder (removed):"
    echo "$found" | head -5 | sed 's/^/    /'
    echo "$found" | while read -r marker; do rm -f "$marker"; done
    failures=$((failures + 1))
  fi
}

printf '%-10s %-24s %-16s %-34s %-8s %s\n' family example expected got score seconds | tee "$out/table.txt"
families=$(grep -v '^#' "$here/expected.tsv" | cut -f1 | awk 'NF && !seen[$0]++')
# Every family with a grading/families/<family>.cmake has examples, and a family asked for exists:
# otherwise this check would pass having checked nothing.
for family in $(cd "$root/grading/families" && ls *.cmake | sed 's/\.cmake$//'); do
  case " $(echo $families) " in *" $family "*) ;; *) echo "FAILED: family $family has no example in expected.tsv"; failures=$((failures + 1)) ;; esac
done
for family in ${only_families//,/ }; do
  case " $(echo $families) " in *" $family "*) ;; *) echo "FAILED: no examples for family '$family'"; failures=$((failures + 1)) ;; esac
done
checked=0
for family in $families; do
  [ -z "$only_families" ] || case ",$only_families," in *",$family,"*) ;; *) continue ;; esac
  batch="$out/$family-submissions"
  mkdir -p "$batch"
  while IFS=$'\t' read -r fam example needs verdict min max; do
    [ "$fam" = "$family" ] || continue
    [ "$mode" = gpu ] || [ "$needs" = cpu ] || continue
    ln -s "$here/$family/$example.cu" "$batch/$example.cu"
  done < <(grep -v '^#' "$here/expected.tsv")
  [ -n "$(ls "$batch")" ] || continue
  "$root/scripts/grade.sh" --family "$family" --batch "$batch" --out "$out/$family" >"$out/$family.log" 2>&1
  status=$?
  after_batch "the $family examples"
  if [ $status -ne 0 ]; then
    echo "FAILED: grading the $family examples did not work (exit $status): $out/$family.log"
    tail -20 "$out/$family.log"
    failures=$((failures + 1))
    continue
  fi
  [ -f "$out/$family/class.csv" ] || { echo "FAILED: no class.csv for $family"; failures=$((failures + 1)); }
  while IFS=$'\t' read -r fam example needs verdict min max; do
    [ "$fam" = "$family" ] || continue
    [ "$mode" = gpu ] || [ "$needs" = cpu ] || continue
    summary="$out/$family/$example/summary.json"
    if [ ! -f "$summary" ]; then
      echo "FAILED: $family/$example has no summary.json"
      failures=$((failures + 1))
      continue
    fi
    score=$(field "$summary" score) got=$(field "$summary" verdict) seconds=$(field "$summary" seconds)
    ok=1
    awk -v s="$score" -v lo="$min" -v hi="$max" 'BEGIN { exit !(s >= lo && s <= hi) }' || ok=0
    # Every kind the row names (joined by +) must be in the summary's verdict.
    for kind in ${verdict//+/ }; do
      case ",$got," in *",$kind,"* | *", $kind,"*) ;; *) ok=0 ;; esac
    done
    checked=$((checked + 1))
    printf '%-10s %-24s %-16s %-34s %-8s %s\n' "$family" "$example" "$verdict $min-$max" "$got" "$score" "$seconds" |
      tee -a "$out/table.txt"
    if [ $ok = 0 ]; then
      echo "FAILED: $family/$example: expected verdict '$verdict' and a score in [$min, $max]; got '$got', $score"
      # What the report says first (each group's smallest failing case and its message), so a device
      # run's log alone tells why: an H100 run once graded every example of six families 0 in under
      # a second each and was never reproduced, with only the table to go on.
      report="$out/$family/$example/report.md"
      [ -f "$report" ] && awk '/^Smallest failing case/ { show = 1; n = 0 } show && n++ < 8 { print "    " $0 } /^```$/ && n > 2 { show = 0 }' "$report" | head -n 24
      failures=$((failures + 1))
    fi
  done < <(grep -v '^#' "$here/expected.tsv")
done

if [ "$mode" = gpu ] && [ -f "$out/reduction/hardcoded_answers/summary.json" ]; then
  # The hard-coded answers were recorded under seed 1: replayed with it, they score.
  "$root/scripts/grade.sh" --family reduction --submission "$here/reduction/hardcoded_answers.cu" --seed 1 \
    --out "$out/hardcoded-seed-1" >"$out/hardcoded-seed-1.log" 2>&1
  after_batch "hardcoded_answers under seed 1"
  fresh=$(field "$out/reduction/hardcoded_answers/summary.json" score)
  recorded=$(field "$out/hardcoded-seed-1/summary.json" score)
  echo "hardcoded_answers: fresh seed $fresh points, the seed it recorded (1) $recorded points" | tee -a "$out/table.txt"
  if ! awk -v f="$fresh" -v r="$recorded" 'BEGIN { exit !(r > f) }'; then
    echo "FAILED: the hard-coded answers should score more under the seed they were recorded with"
    failures=$((failures + 1))
  fi
fi
[ $checked -gt 0 ] || { echo "FAILED: no example was checked"; failures=$((failures + 1)); }
if [ $failures -gt 0 ] && [ "$mode" = gpu ]; then
  echo "the GPU after the mismatches:"
  nvidia-smi --query-gpu=name,memory.used,memory.total,utilization.gpu,compute_mode --format=csv 2>&1 | sed 's/^/    /'
  nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv 2>&1 | sed 's/^/    /'
fi
[ $failures -eq 0 ] || { echo "FAILED: $failures mismatch(es); reports under $out"; exit 1; }
echo "all examples graded as expected"
