"""No dead code in app/: vulture finds nothing outside tests/core/vulture_allow.txt, and every entry there
still names something vulture would report (an entry that no longer applies is removed)."""
from __future__ import annotations

import fnmatch
import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALLOW = Path(__file__).with_name("vulture_allow.txt")


def allowed() -> dict[str, str]:
    names = {}
    for line in ALLOW.read_text().splitlines():
        name, _, why = line.partition("#")
        if name.strip():
            assert why.strip(), f"{name.strip()}: say why it stays"
            names[name.strip()] = why.strip()
    return names


@functools.cache
def vulture() -> tuple[tuple[str, str], ...]:
    """Return (name, vulture's line) for everything vulture reports in app/ (one run for both tests)."""
    args = [sys.executable, "-m", "vulture", "app", "--min-confidence", "60", "--exclude", "app/envs"]
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 3), result.stderr  # 3: dead code found
    found = []
    for line in result.stdout.splitlines():
        name = re.search(r"'([^']+)'", line)
        assert name, line
        found.append((name.group(1), line))
    return tuple(found)


def test_vulture_finds_nothing_outside_the_allow_list():
    import vulture as _installed  # noqa: F401  (a test extra: a missing install fails, never skips)
    patterns = list(allowed())
    assert [line for name, line in vulture() if not any(fnmatch.fnmatchcase(name, p) for p in patterns)] == []


def test_every_allow_list_entry_is_still_needed():
    import vulture as _installed  # noqa: F401  (a test extra: a missing install fails, never skips)
    names = [name for name, _ in vulture()]
    stale = [p for p in allowed() if not any(fnmatch.fnmatchcase(n, p) for n in names)]
    assert stale == [], "remove these entries: vulture reports nothing by that name"
