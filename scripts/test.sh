#!/usr/bin/env bash
# Set up with the test extras and run the whole suite: fast tests, slow
# end-to-end tests, then the conformance tier against the real sglang-omni.
set -euo pipefail
cd "$(dirname "$0")/.."
AUDIOBOOK_EXTRAS="[test]" bash scripts/setup.sh
bash scripts/system-deps.sh
# The conformance venv first: it holds the real sglang-omni 0.1.9 package, whose source
# some fast tests read (flags of its CLI, fields of its request) instead of copying it.
if [ -f tests/conformance/env.sh ]; then
    bash tests/conformance/env.sh >/dev/null
fi
.venv/bin/python -m pytest -m "not conformance" "$@"
if [ -f tests/conformance/env.sh ]; then
    # tests/cast holds one conformance test beside its fixtures (a cast book through the real app).
    .venv/bin/python -m pytest -m conformance tests/conformance tests/cast "$@"
fi
