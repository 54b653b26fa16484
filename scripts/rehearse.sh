#!/usr/bin/env bash
# A fresh-machine rehearsal of CI: a clean clone of HEAD with an empty HOME (no pip, app, book or
# conformance caches) and ../shared beside it, then exactly what CI runs (`bash .ci/run`).
# Run it before a change to the tests or the setup lands. Usage: bash scripts/rehearse.sh [DIR]
# The clone, its home and its log stay in DIR (default: a new temp folder) for a look afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
top="$PWD"
dir="${1:-$(mktemp -d -t audiobook-rehearsal.XXXXXX)}"
mkdir -p "$dir/home/.config"
git clone -q "$top" "$dir/clone"
# The machine's own pip configuration (wheel sources, constraints) is part of the machine, not a cache.
[ -d "$HOME/.config/pip" ] && cp -r "$HOME/.config/pip" "$dir/home/.config/"
[ -e "$dir/shared" ] || ln -s "$(cd "$top/.." && pwd)/shared" "$dir/shared"
echo "rehearsal in $dir (log: $dir/ci.log)"
cd "$dir/clone"
env -u AUDIOBOOK_BOOKS_CACHE -u XDG_CACHE_HOME -u PIP_CACHE_DIR HOME="$dir/home" CI=true \
    bash .ci/run </dev/null 2>&1 | tee "$dir/ci.log"
