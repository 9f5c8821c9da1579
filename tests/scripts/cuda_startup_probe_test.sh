#!/usr/bin/env bash
# scripts/cuda_startup_probe.sh with a fake nvidia-smi (4 GPUs) and a fake probe whose cuInit costs
# 1.0 s seeing 4 GPUs and 0.2 s seeing one: each row gets its processes, the GPUs they saw and the
# phases' mean and max; a process pinned by the script sees exactly one GPU. Without a GPU: exit 77
# and a table that says nothing was measured.
set -u
scripts=$1
unset CUDA_VISIBLE_DEVICES  # a shard pinned to one GPU (run_shards_on_host.sh) would narrow the fake host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/none"
cat >"$work/bin/nvidia-smi" <<'FAKE'
#!/usr/bin/env bash
case "$*" in *--query-gpu=name*) for i in 0 1 2 3; do echo "NVIDIA H100 80GB HBM3"; done ;;
  *) for i in 0 1 2 3; do echo "GPU $i: NVIDIA H100 80GB HBM3 (UUID: GPU-0000000$i)"; done ;; esac
FAKE
cat >"$work/probe" <<'FAKE'
#!/usr/bin/env bash
# Sees what CUDA_VISIBLE_DEVICES lists, else all 4; the device asked for must be one it sees.
seen=4
[ -n "${CUDA_VISIBLE_DEVICES+set}" ] && seen=$(printf '%s' "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
[ "${1:-0}" -lt "$seen" ] || { echo "device $1 of $seen" >&2; exit 1; }
if [ "$seen" -eq 1 ]; then echo "cuinit 0.200 context 0.100 launch 0.001 total 0.301 visible 1"
else echo "cuinit 1.000 context 0.150 launch 0.001 total 1.151 visible $seen"; fi
FAKE
printf '#!/usr/bin/env bash\nexit 9\n' >"$work/none/nvidia-smi"  # a host whose driver finds no GPU
chmod +x "$work/bin/nvidia-smi" "$work/probe" "$work/none/nvidia-smi"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

PATH="$work/bin:$PATH" "$scripts/cuda_startup_probe.sh" --probe "$work/probe" --processes 8 --out "$work/table.md" >"$work/out.txt" 2>&1
status=$?
[ $status -eq 0 ] || fail "exit $status with 4 GPUs"
for line in '| alone, seeing every GPU | 3 | 4 | 1.00 / 1.00 | 0.15 / 0.15 | 1.15 / 1.15 |' \
            '| alone, seeing its GPU only | 3 | 1 | 0.20 / 0.20 | 0.10 / 0.10 | 0.30 / 0.30 |' \
            '| 8 at once over 4 GPU(s), seeing every GPU | 8 | 4 | 1.00 / 1.00 | 0.15 / 0.15 | 1.15 / 1.15 |' \
            '| 8 at once over 4 GPU(s), each seeing its GPU only | 8 | 1 | 0.20 / 0.20 | 0.10 / 0.10 | 0.30 / 0.30 |'; do
  grep -qxF "$line" "$work/table.md" || fail "no row: $line"
done
grep -q '^CUDA start-up on NVIDIA H100 80GB HBM3 (4 visible)' "$work/table.md" || fail "the table does not name the GPU"
grep -q 'probe errors' "$work/table.md" && fail "a probe failed: a process pinned to one GPU was asked for another"

# Narrowed to two GPUs: round robin over those two, pinned to their own entries.
PATH="$work/bin:$PATH" CUDA_VISIBLE_DEVICES=2,3 "$scripts/cuda_startup_probe.sh" --probe "$work/probe" --processes 4 >"$work/two.txt" 2>&1
grep -qxF '| 4 at once over 2 GPU(s), seeing every GPU | 4 | 2 | 1.00 / 1.00 | 0.15 / 0.15 | 1.15 / 1.15 |' "$work/two.txt" ||
  fail "narrowed to 2 GPUs: $(cat "$work/two.txt")"

PATH="$work/none:$PATH" "$scripts/cuda_startup_probe.sh" --probe "$work/probe" >"$work/none.txt" 2>&1
status=$?
[ $status -eq 77 ] || fail "exit $status without a GPU (expected 77)"
grep -q 'no GPU on this machine: nothing measured' "$work/none.txt" || fail "no GPU: $(cat "$work/none.txt")"
"$scripts/cuda_startup_probe.sh" --processes 0 --probe "$work/probe" >/dev/null 2>&1; [ $? -eq 2 ] || fail "--processes 0 is not a usage error"
"$scripts/cuda_startup_probe.sh" --processes >/dev/null 2>&1; [ $? -eq 2 ] || fail "--processes without a value is not a usage error"
# A probe that fails is reported and the run is not a measurement: exit 1.
printf '#!/usr/bin/env bash\necho "could not open device" >&2; exit 1\n' >"$work/broken"
chmod +x "$work/broken"
PATH="$work/bin:$PATH" "$scripts/cuda_startup_probe.sh" --probe "$work/broken" --processes 2 >"$work/broken.txt" 2>&1
status=$?
[ $status -eq 1 ] || fail "exit $status when every probe failed (expected 1)"
grep -q 'could not open device' "$work/broken.txt" || fail "the probe's errors are not in the report"

[ $failures -eq 0 ] && echo "PASSED" || { cat "$work/out.txt"; exit 1; }
