#!/usr/bin/env bash
# Set up the app's own venv (.venv): the converter, the embedded Piper voice,
# ffmpeg (imageio-ffmpeg wheel). No torch, no CUDA: those live in the managed
# sglang-omni venv (app/envs/sglomni), provisioned only when you use that backend.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".${AUDIOBOOK_EXTRAS:-}"
