"""`cache` and `cache prune --finished`: a finished book gives its chunks back and still rewrites without
synthesis; a book whose latest run has not finished keeps them (issue 15)."""
from __future__ import annotations

import os
import time

import pytest

from tests.pipeline.helpers import CHAPTERS, chunk_files, synthesized_count, write_txt_book


@pytest.mark.slow
def test_prune_finished_frees_a_finished_books_chunks_and_keeps_an_unfinished_ones(tmp_path, run_cli,
                                                                                     isolated_home):
    small = dict(list(CHAPTERS.items())[:2])
    book, out = write_txt_book(tmp_path, small), tmp_path / "voyage.m4b"
    first = run_cli(book, "--output", out, "--chunk-size", "8")
    assert first.returncode == 0, first.stderr
    cache = isolated_home / "cache"
    chunks = len(chunk_files(cache))
    assert chunks > 0

    shown = run_cli("cache")
    assert shown.returncode == 0 and "finished)" in shown.stdout and "prune --finished" in shown.stdout, shown.stdout
    kept = run_cli("cache", "prune")  # every chunk is named by the book: nothing to free
    assert "and 0 chunks no book needs" in kept.stdout and len(chunk_files(cache)) == chunks, kept.stdout

    # A later run that started and has not finished: its record is newer than the output.
    manifest = next((cache / "work").glob("*/book.json"))
    later = time.time() + 5
    os.utime(manifest, (later, later))
    held = run_cli("cache", "prune", "--finished")
    assert held.returncode == 0 and len(chunk_files(cache)) == chunks, held.stdout

    os.utime(manifest, (later - 60, later - 60))  # the output is newer again: the book is finished
    freed = run_cli("cache", "prune", "--finished")
    assert freed.returncode == 0, freed.stderr
    assert f"and {chunks} chunks no unfinished book needs" in freed.stdout, freed.stdout
    assert chunk_files(cache) == {}

    out.unlink()
    again = run_cli(book, "--output", out, "--chunk-size", "8")
    assert again.returncode == 0, again.stderr
    assert out.is_file() and synthesized_count(again.stderr) == 0, again.stderr
