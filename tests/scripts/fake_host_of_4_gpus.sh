# Sourced by the scripts' tests: fake_host_of_4_gpus <dir> puts in <dir> an nvidia-smi whose -L lists
# 4 H100s (what ctest_config/visible_gpus.sh counts) and puts <dir> first on PATH.
fake_host_of_4_gpus() {
  cat >"$1/nvidia-smi" <<'FAKE'
#!/usr/bin/env bash
for i in 0 1 2 3; do echo "GPU $i: NVIDIA H100 80GB HBM3 (UUID: GPU-0000000$i)"; done
FAKE
  chmod +x "$1/nvidia-smi"
  export PATH="$1:$PATH"
}
