#!/usr/bin/env bash
# How the perf suites are registered (issue 34; ctest_config/KconformTesting.cmake, EVERY_GPU), read from
# the include files a configure generates (no build needed): a scratch configure of this source tree
#   - for 3 GPUs, each alone test on its own (KCONFORM_ALONE_PER_GPU=ON, KCONFORM_GPU_COUNT=3): every
#     perf point unit (AgainstBaseline) runs through ctest_config/on_every_resource_gpu.sh, named
#     <unit>.gpu<id>, on 3 groups of one GPU's slots, as would a unit added later, and a seed's
#     conclusions (SeedConclusions) once, on one GPU's slots, unnamed by GPU (EVERY_GPU_EXCEPT: the
#     generated per-unit choice is evaluated for the three names); never RUN_SERIAL, with the alone
#     threads (1 here, even where the suite asks for every core); a suite that shares the GPU is
#     untouched;
#   - for one GPU of its own (ON, 1) and alone on the machine (OFF, 1): one copy, no launcher, as before.
#   every_gpu_registration_test.sh <cmake> <source dir> <scratch dir>
set -u
cmake=$1 source=$2 scratch=$3
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
perf_suites="reduction_perf_tests matmul_perf_tests access_perf_tests polybench_perf_tests"

configure() {  # configure <per gpu> <gpu count>
  "$cmake" -S "$source" -B "$scratch" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DKCONFORM_GPU_SLOTS=10 -DKCONFORM_ALONE_REFERENCE_THREADS=1 -DKCONFORM_ALONE_PER_GPU="$1" -DKCONFORM_GPU_COUNT="$2" \
    >"$scratch.log" 2>&1 || { echo "FAILED: configure ($1, $2): $(tail -5 "$scratch.log")"; exit 1; }
}
units_file() { echo "$scratch/tests/$1_units.cmake"; }
# The generated unit test lines (add_test, and its properties with their continuation line), not the
# listing-failure fallback.
unit_lines() {
  grep -E '^ +add_test\("\$\{name\}"' "$(units_file "$1")"
  grep -E -A1 '^ +set_tests_properties\("\$\{name\}" PROPERTIES LABELS' "$(units_file "$1")"
}

# What the generated per-unit choice gives a unit of this name: "<launcher> <groups> <suffix>", the
# block (between its comment and the shard loop) evaluated by cmake -P.
fan_out_of() {  # fan_out_of <suite> <unit>
  awk '/# EVERY_GPU: on every GPU/ { on = 1 } on && /foreach\(shard RANGE/ { exit } on' "$(units_file "$1")" >"$scratch.block.cmake"
  [ -s "$scratch.block.cmake" ] || { echo "no-block"; return; }
  printf 'set(unit "%s")\ninclude("%s")\nmessage("[${unit_launcher}] ${unit_groups} [${unit_suffix}]")\n' "$2" \
    "$scratch.block.cmake" >"$scratch.eval.cmake"
  "$cmake" -P "$scratch.eval.cmake" 2>&1
}

rm -rf "$scratch"
configure ON 3
for suite in $perf_suites; do
  [ -f "$(units_file "$suite")" ] || { fail "$suite: no generated units file"; continue; }
  lines=$(unit_lines "$suite")
  grep -q 'add_test("${name}" ${unit_launcher} "${runner}" run ' <<<"$lines" ||
    fail "$suite (3 GPUs): the unit's launcher is not chosen per unit: $lines"
  grep -q -- '--name "${name}${unit_suffix}"' <<<"$lines" || fail "$suite (3 GPUs): the name's suffix is not chosen per unit"
  grep -q 'RESOURCE_GROUPS "${unit_groups},gpus:10"' <<<"$lines" || fail "$suite (3 GPUs): not the unit's groups of one GPU's 10 slots"
  grep -q 'OMP_NUM_THREADS=1[";]' <<<"$lines" || fail "$suite (3 GPUs): OpenMP threads not the alone threads (1)"
  grep -q 'RUN_SERIAL' <<<"$lines" && fail "$suite (3 GPUs): RUN_SERIAL holds the other GPUs"
  for unit in AgainstBaseline ANewUnit; do
    points=$(fan_out_of "$suite" "$unit")
    [[ "$points" == "[$source/ctest_config/on_every_resource_gpu.sh] 3 [.gpu@GPU@]" ]] ||
      fail "$suite (3 GPUs): a unit named $unit does not run on every GPU through the launcher: $points"
  done
  if [ "$suite" != polybench_perf_tests ]; then  # polybench has no seed conclusions
    seeds=$(fan_out_of "$suite" SeedConclusions)
    [[ "$seeds" == "[] 1 []" ]] || fail "$suite (3 GPUs): its seed conclusions are not run once, on one GPU: $seeds"
  fi
done
shared=$(unit_lines reduction_gpu_tests)
grep -q 'on_every_resource_gpu' <<<"$shared" && fail "reduction_gpu_tests (shares the GPU) runs through the launcher"
grep -q 'RESOURCE_GROUPS "1,gpus:1"' <<<"$shared" || fail "reduction_gpu_tests: not one slot of one GPU: $shared"

for setting in "ON 1" "OFF 1"; do
  set -- $setting
  configure "$1" "$2"
  for suite in $perf_suites; do
    lines=$(unit_lines "$suite")
    grep -q 'on_every_resource_gpu' <<<"$lines" && fail "$suite ($1, $2 GPU): runs through the launcher"
    grep -q '@GPU@' <<<"$lines" && fail "$suite ($1, $2 GPU): named per GPU"
    grep -q 'RESOURCE_GROUPS "1,gpus:10"' <<<"$lines" || fail "$suite ($1, $2 GPU): not one GPU's 10 slots: $lines"
    if [ "$1" = OFF ]; then
      grep -q 'RUN_SERIAL TRUE' <<<"$lines" || fail "$suite (alone on the machine): not RUN_SERIAL"
    fi
  done
done
rm -rf "$scratch" "$scratch.log" "$scratch.block.cmake" "$scratch.eval.cmake"
[ $failures -eq 0 ] && echo "PASSED: the perf points run once per GPU on several, seed conclusions once; once on one"
[ $failures -eq 0 ]
