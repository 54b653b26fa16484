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
# Every skip of both tiers, with its reason, is listed once at the very end (a skip must never hide a
# missing install step: under CI, one that names a setup script fails instead; tests/conftest.py).
AUDIOBOOK_SKIP_REPORT="$(mktemp)"
export AUDIOBOOK_SKIP_REPORT
trap 'rm -f "$AUDIOBOOK_SKIP_REPORT"' EXIT
status=0
# Property tests on fixed draws here (tests/conftest.py); a plain `pytest` draws anew each run.
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-repeatable}"
# The slowest tests are printed with the fast tier, so the suite's time is seen where it is spent.
# Two processes (AUDIOBOOK_TEST_WORKERS), each taking whole test files (--dist loadfile), so a file's
# module fixtures are built once and its tests run in their order; the shared caches they fill (books,
# voices, conformance venv) are written under a lock or before pytest starts.
.venv/bin/python -m pytest -m "not conformance" -n "${AUDIOBOOK_TEST_WORKERS:-2}" --dist loadfile \
    --durations=30 "$@" || status=$?
if [ -f tests/conformance/env.sh ]; then
    # tests/cast holds one conformance test beside its fixtures (a cast book through the real app).
    .venv/bin/python -m pytest -m conformance tests/conformance tests/cast "$@" || status=$?
fi
echo "== skips on this machine (both tiers), by reason =="
awk -F'\t' '{n[$2] += $1} END {for (r in n) printf "%5d  %s\n", n[r], r; if (!NR) print "    none"}' \
    "$AUDIOBOOK_SKIP_REPORT" | sort -rn
exit "$status"
