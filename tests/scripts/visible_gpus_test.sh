#!/usr/bin/env bash
# ctest_config/visible_gpus.sh with a fake nvidia-smi listing 4 GPUs: the count follows
# CUDA_VISIBLE_DEVICES (a shard pinned to one GPU lists one in its resource spec), and
# make_resource_spec.sh writes that many entries.
set -u
config=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/nvidia-smi" <<'FAKE'
#!/usr/bin/env bash
for i in 0 1 2 3; do echo "GPU $i: NVIDIA H100 80GB HBM3 (UUID: GPU-0000000$i)"; done
FAKE
chmod +x "$work/nvidia-smi"
export PATH="$work:$PATH"
failures=0
check() {  # check <expected> <what> [CUDA_VISIBLE_DEVICES value | unset]
  local want=$1 what=$2 got
  if [ "$3" = unset ]; then got=$(env -u CUDA_VISIBLE_DEVICES "$config/visible_gpus.sh")
  else got=$(CUDA_VISIBLE_DEVICES=$3 "$config/visible_gpus.sh"); fi
  if [ "$got" = "$want" ]; then echo "ok: $what: $got"; else echo "FAIL: $what: $got, expected $want"; failures=$((failures + 1)); fi
}
check 4 "no CUDA_VISIBLE_DEVICES" unset
check 1 "one GPU" 2
check 2 "two GPUs" "0,3"
check 0 "none (empty)" ""
check 4 "more listed than the host has" "0,1,2,3,4,5"
CUDA_VISIBLE_DEVICES=1 "$config/make_resource_spec.sh" "$work/spec.json" 3
entries=$(grep -c '"id"' "$work/spec.json")
if [ "$entries" = 1 ]; then echo "ok: the pinned resource spec lists 1 GPU"
else echo "FAIL: the pinned resource spec lists $entries GPUs"; cat "$work/spec.json"; failures=$((failures + 1)); fi
exit $failures
