"""Many books through real Piper and real ffmpeg, via the CLI: a folder of books is one queue."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.pipeline.many_books import chapter_titles, ffprobe_chapters, summary_rows, write_books

pytestmark = pytest.mark.slow


def test_a_folder_of_books_makes_one_m4b_each_with_their_chapters(tmp_path, run_cli, isolated_home):
    books = write_books(tmp_path / "shelf", 3, chapters=2, sentences=1)
    (tmp_path / "shelf" / "notes.json").write_text("{}")  # not a book: the folder's books only
    # Another book with the first one's title: both belong in the folder, the later named after its file too.
    twin = tmp_path / "shelf" / "d-twin.txt"
    twin.write_text(books[0].read_text().replace("stone number", "pebble number"))
    out = tmp_path / "audiobooks"
    result = run_cli(tmp_path / "shelf", "--backend", "piper", "--output", f"{out}/", timeout=600)
    assert result.returncode == 0, result.stderr
    written = result.stdout.splitlines()
    assert len(written) == 4 and len(set(written)) == 4, result.stdout
    assert any(w.endswith(" (d-twin).m4b") for w in written), result.stdout
    expected = {b.name: chapter_titles(b) for b in books} | {twin.name: chapter_titles(books[0])}
    outputs = dict(re.findall(r"^  done +(\S+): (.+?) \(\d+:\d\d:\d\d of audio\)$", result.stderr, flags=re.M))
    assert set(outputs) == set(expected), result.stderr
    for name, titles in expected.items():
        chapters = ffprobe_chapters(Path(outputs[name]))
        assert [t for t, _, _ in chapters] == titles, name
        for title, start, end in chapters:
            assert 1.0 < end - start < 15.0, (name, title, start, end)  # a spoken sentence, not silence
    assert set(summary_rows(result.stderr).values()) == {"done"}

