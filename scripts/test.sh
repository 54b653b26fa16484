#!/usr/bin/env bash
# Set up with the test extras and run the whole suite: fast tests, slow
# end-to-end tests, then the conformance tier against the real sglang-omni.
set -euo pipefail
cd "$(dirname "$0")/.."
AUDIOBOOK_EXTRAS="[test]" bash scripts/setup.sh
bash scripts/system-deps.sh
.venv/bin/python -m pytest -m "not conformance" "$@"
if [ -f tests/conformance/env.sh ]; then
    bash tests/conformance/env.sh
    .venv/bin/python -m pytest -m conformance tests/conformance "$@"
fi
