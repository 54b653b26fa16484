"""No dead code in app/: vulture finds nothing outside tests/core/vulture_allow.txt, and every entry there
still names something vulture would report (an entry that no longer applies is removed)."""
from __future__ import annotations

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


def vulture(*ignore: str) -> list[str]:
    args = [sys.executable, "-m", "vulture", "app", "--min-confidence", "60", "--exclude", "app/envs"]
    if ignore:
        args += ["--ignore-names", ",".join(ignore)]
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 3), result.stderr  # 3: dead code found
    return result.stdout.splitlines()


def test_vulture_finds_nothing_outside_the_allow_list():
    pytest.importorskip("vulture")
    assert vulture(*allowed()) == []


def test_every_allow_list_entry_is_still_needed():
    pytest.importorskip("vulture")
    found = "\n".join(vulture())
    stale = [n for n in allowed() if f"'{n.rstrip('*')}" not in found]
    assert stale == [], "remove these entries: vulture reports nothing by that name"
