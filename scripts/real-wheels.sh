#!/usr/bin/env bash
# The real NVIDIA (and PyTorch) wheels the real-cudnn profile tests against, from the configured
# pip index (never the internet in tests): the wheel files themselves in DIR/wheels, and a real
# site-packages made from them in DIR/site-packages (pip install --target, no dependencies).
# Idempotent: a finished DIR (DIR/.done names the same pins) is left as it is.
# Usage: real-wheels.sh DIR
set -euo pipefail
dir=$1
# The pins: torch 2.14.1 requires nvidia-cudnn-cu13==9.24.0.43 (its METADATA); cuBLAS and NVRTC of
# CUDA 13 are cuDNN 9's run-time dependencies; the CUDA 13 runtime gives libcudart.so.13.
pins="nvidia-cudnn-cu13==9.24.0.43 nvidia-cublas==13.1.1.3 nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-runtime==13.0.96 torch==2.14.1"
if [ -f "$dir/.done" ] && [ "$(cat "$dir/.done")" = "$pins" ]; then exit 0; fi
py=$(command -v python3 || true)
[ -n "$py" ] || { echo "real-wheels: python3 is needed to fetch the real wheels with pip" >&2; exit 2; }
rm -rf "$dir"; mkdir -p "$dir/wheels"
# shellcheck disable=SC2086
"$py" -m pip download --quiet --retries 1 --no-deps --only-binary=:all: \
  -d "$dir/wheels" $pins
# shellcheck disable=SC2086
"$py" -m pip install --quiet --no-deps --no-compile --no-index --find-links "$dir/wheels" --target "$dir/site-packages" \
  --only-binary=:all: $pins
echo "$pins" > "$dir/.done"
