"""Verified takes are cached with their verdict and timings; re-runs trust them, new settings re-check them.

Real Piper (asked to verify with --verify), real tiny.en, real files; the
timing sidecars are read back as the documented JSON.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.pipeline.helpers import synthesized_count, write_txt_book

pytestmark = pytest.mark.slow


def sidecars(home: Path, name: str) -> dict[str, float]:
    return {p.name: p.stat().st_mtime_ns for p in (home / "cache" / "chunks").rglob(f"*.{name}")}


def test_verdicts_are_cached_and_rechecked_only_when_settings_change(tmp_path, run_cli, isolated_home):
    book = write_txt_book(tmp_path, {"The Harbour": "The boat left the harbour at dawn. Gulls followed it."})
    out = tmp_path / "v.m4b"
    first = run_cli(book, "--verify", "--output", out)
    assert first.returncode == 0, first.stderr
    verdicts, words = sidecars(isolated_home, "verify.json"), sidecars(isolated_home, "words.json")
    assert verdicts and len(words) == len(verdicts)
    timings = json.loads(next((isolated_home / "cache" / "chunks").rglob("*.words.json")).read_text())
    assert timings["version"] == 1 and timings["words"]
    assert all(0 <= w["start"] <= w["end"] for w in timings["words"])
    report = json.loads(out.with_suffix(".report.json").read_text())
    assert report["verification"]["chunks_checked"] == len(verdicts)

    again = run_cli(book, "--verify", "--output", out)
    assert again.returncode == 0, again.stderr
    assert synthesized_count(again.stderr) == 0
    assert sidecars(isolated_home, "words.json") == words, "accepted chunks are not transcribed again"
    assert json.loads(out.with_suffix(".report.json").read_text())["verification"]["chunks_checked"] == len(verdicts)

    stricter = run_cli(book, "--verify", "--verify-takes", "5", "--output", out)
    assert stricter.returncode == 0, stricter.stderr
    assert synthesized_count(stricter.stderr) == 0, "new settings re-check the kept takes, not re-render them"
    rechecked = sidecars(isolated_home, "words.json")
    assert rechecked.keys() == words.keys() and all(rechecked[k] != words[k] for k in words)


def test_piper_is_not_verified_unless_asked(tmp_path, run_cli, isolated_home):
    book = write_txt_book(tmp_path, {"Short": "A short line."})
    result = run_cli(book, "--output", tmp_path / "p.m4b")
    assert result.returncode == 0, result.stderr
    assert sidecars(isolated_home, "verify.json") == {}
    assert "not verified" in result.stderr
