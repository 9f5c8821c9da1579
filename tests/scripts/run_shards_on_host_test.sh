#!/usr/bin/env bash
# scripts/run_shards_on_host.sh on a fake host of 2 GPUs (a fake nvidia-smi) with a fake main job
# (fake_main_job/run_gpu_suite.sh) in a scratch git checkout of the scripts: each shard runs in a tree
# of its own, pinned to its GPU (CUDA_VISIBLE_DEVICES i-1) with KCONFORM_SHARD=i/N and the checkout's
# commit (KCONFORM_COMMIT: a shard's tree is not a git checkout); the merged report is summarised
# where a shard's build is (perf.html written), and the one-machine run (--single) compares equal.
set -u
repo=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
fake=$work/checkout
mkdir -p "$fake/scripts" "$fake/ctest_config" "$work/bin"
cp "$repo"/scripts/*.sh "$repo"/scripts/*.py "$fake/scripts/"
cp "$repo/ctest_config/visible_gpus.sh" "$fake/ctest_config/"
cp "$repo/.gitignore" "$fake/"
cp "$repo/tests/scripts/fake_main_job/run_gpu_suite.sh" "$fake/scripts/run_gpu_suite.sh"
git -C "$fake" init -q && git -C "$fake" add -A &&
  git -C "$fake" -c user.name=test -c user.email=test@localhost commit -qm fake || { echo "FAIL: no scratch checkout"; exit 1; }
commit=$(git -C "$fake" rev-parse --short HEAD)
cat >"$work/bin/nvidia-smi" <<'FAKE'
#!/usr/bin/env bash
case "$*" in
  -L) for i in 0 1; do echo "GPU $i: NVIDIA FakeGPU (UUID: GPU-0000000$i)"; done ;;
  *name*) echo "NVIDIA FakeGPU"; echo "NVIDIA FakeGPU" ;;
  *) exit 9 ;;
esac
FAKE
chmod +x "$work/bin/nvidia-smi"
out=$work/out
(cd "$work" && env -u CUDA_VISIBLE_DEVICES -u KCONFORM_COMMIT PATH="$work/bin:$PATH" "$fake/scripts/run_shards_on_host.sh" "$out" 2 --single) >"$work/log" 2>&1
status=$?
[ $status -eq 0 ] || fail "exit $status, expected 0: $(tail -5 "$work/log")"
for i in 1 2; do
  want=$(printf 'CUDA_VISIBLE_DEVICES=%d\nKCONFORM_SHARD=%d/2\nKCONFORM_COMMIT=%s' $((i - 1)) "$i" "$commit")
  [ "$(cat "$out/shard-$i/env.txt" 2>/dev/null)" = "$want" ] ||
    fail "shard $i was handed [$(tr '\n' ' ' <"$out/shard-$i/env.txt" 2>/dev/null)], expected [$(echo $want)]"
done
[ "$(sed -n 's/^KCONFORM_COMMIT=//p' "$out/single/env.txt" 2>/dev/null)" = "$commit" ] || fail "the one-machine run was not handed commit $commit"
grep -q '^- commit: '"$commit"'$' "$out/merged/summary.md" 2>/dev/null || fail "the merged summary does not name commit $commit"
grep -qF 'Charts and every point' "$out/merged/summary.md" 2>/dev/null && [ -s "$out/merged/perf.html" ] ||
  fail "the merged report has no perf.html: $(grep 'perf.html' "$out/merged/summary.md" 2>/dev/null)"
grep -qF '| tests | 6 | 6 | 0 | 0 | 0 | 0 | 0 |' "$out/shards.md" && grep -qF '| cases | 6 | 6 | 0 | 0 | 0 | 0 | 0 |' "$out/shards.md" ||
  fail "the comparison is not 6 and 6, none lost: $(grep '^| ' "$out/shards.md" | tail -2)"
[ $failures -eq 0 ] && echo "PASSED: run_shards_on_host.sh" || { cat "$work/log"; echo "FAILED: $failures check(s)"; exit 1; }
