"""A damaged chapter file at the mux: one line naming it, exit 3, the good M4B kept, nothing synthesized again.

The M4B writer (app/audio/m4b.py) copies the run's encoded chapter files frame
by frame; a file damaged on disk since it was encoded is refused, and deleting
it, as the line says, makes the next run encode that chapter again from its
cached chunks.
"""
from __future__ import annotations

import os

import pytest

from tests.media import read_chapters
from tests.pipeline.helpers import CHAPTERS, synthesized_count, titles, write_txt_book

pytestmark = pytest.mark.slow  # a short book through Piper, then two cached re-runs


def test_a_damaged_chapter_file_is_named_and_deleting_it_recovers(tmp_path, run_cli, isolated_home):
    book = write_txt_book(tmp_path)
    out = tmp_path / "out" / "voyage.m4b"
    assert run_cli(book, "--output", out, "--chunk-size", "8").returncode == 0
    good = out.read_bytes()
    encoded = sorted(p for p in (isolated_home / "cache").rglob("*.aac") if not p.name.startswith("."))
    assert len(encoded) == len(CHAPTERS), encoded
    victim = encoded[1]
    data = victim.read_bytes()
    victim.write_bytes(data[:len(data) // 2] + bytes(64) + data[len(data) // 2:])
    stat = out.stat()
    os.utime(out, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # not "up to date": mux again

    failed = run_cli(book, "--output", out, "--chunk-size", "8")
    assert failed.returncode == 3, failed.stderr
    assert "Traceback" not in failed.stderr
    [line] = [ln for ln in failed.stderr.splitlines() if str(victim) in ln]
    assert "cannot go into the M4B" in line and "Delete that file" in line
    assert out.read_bytes() == good
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".")] == []  # no temp M4B left

    victim.unlink()
    rerun = run_cli(book, "--output", out, "--chunk-size", "8")
    assert rerun.returncode == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 0
    assert [t for t, _, _ in read_chapters(out)] == titles(CHAPTERS)
