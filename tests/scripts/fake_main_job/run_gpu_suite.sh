#!/usr/bin/env bash
# A stand-in for scripts/run_gpu_suite.sh (tests/scripts/run_shards_on_host_test.sh): six tests of one
# case each, shard i of N running every N-th from the i-th as CTest's -I i,,N does, each test's unit,
# a perf row for test 1, summary.md's GPU and status lines, and env.txt: what the shard was handed.
# Like the real job it builds build/gpu in its tree, here only a perf report tool that writes perf.html.
set -u
out=$1
mkdir -p "$out/units" "$out/perf" build/gpu/tools/perf_report
tool=build/gpu/tools/perf_report/kconform_perf_report
printf '#!/bin/sh\n[ "$1" = --report-dir ] && echo "<html>perf</html>" >"$2/perf.html"\n' >"$tool" && chmod +x "$tool"
shard=${KCONFORM_SHARD:-1/1}
i=${shard%/*} n=${shard#*/}
printf 'CUDA_VISIBLE_DEVICES=%s\nKCONFORM_SHARD=%s\nKCONFORM_COMMIT=%s\n' "${CUDA_VISIBLE_DEVICES-unset}" \
  "${KCONFORM_SHARD-unset}" "${KCONFORM_COMMIT-unset}" >"$out/env.txt"
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<testsuite name="kconform">'
  for t in 1 2 3 4 5 6; do
    [ $(((t - i) % n)) -eq 0 ] || continue
    printf '  <testcase name="fake.test%d" classname="fake.test%d"\n    time="1.0" status="run">\n  </testcase>\n' "$t" "$t"
    {
      echo '<?xml version="1.0" encoding="UTF-8"?>'
      echo "<testsuites name=\"fake.test$t\"><testsuite name=\"fake.test$t\">"
      echo "  <testcase classname=\"Fake/Case\" name=\"Of$t\" time=\"0.1\" status=\"passed\">"
      echo '  </testcase>'
      echo '</testsuite></testsuites>'
    } >"$out/units/fake.test$t.xml"
    # A judged point (fixtures/perf_verdict.hpp's 22 columns: 1 key, 2 family, 7 verdict, 16 ratio,
    # 21 GPU index, 22 UUID).
    [ "$t" != 1 ] || printf 'fake/P/n=1\tfake\t3\t4\t5\t6\tOK\t8\t9\t10\t11\t12\t13\t14\t15\t1.01\t0\t18\t19\t20\t0\tGPU-fake\n' >"$out/perf/fake-P@GPU-fake.tsv"
  done
  echo '</testsuite>'
} >"$out/junit.xml"
printf '# kconform GPU run\n\n**Verdict: PASSED**\n\n- GPU: NVIDIA FakeGPU\n- build: 1 s (status 0); tests: 2 s (ctest status 0): shared 1 s, alone 1 s\n' >"$out/summary.md"
