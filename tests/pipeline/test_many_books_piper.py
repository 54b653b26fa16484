"""Many books through real Piper and real ffmpeg, via the CLI: a folder of books is one queue."""
from __future__ import annotations

import pytest

from tests.pipeline.many_books import chapter_titles, ffprobe_chapters, summary_rows, write_books

pytestmark = pytest.mark.slow


def test_a_folder_of_three_books_makes_three_m4bs_with_their_chapters(tmp_path, run_cli, isolated_home):
    books = write_books(tmp_path / "shelf", 3, chapters=2, sentences=1)
    (tmp_path / "shelf" / "notes.json").write_text("{}")  # not a book: the folder's books only
    out = tmp_path / "audiobooks"
    result = run_cli(tmp_path / "shelf", "--backend", "piper", "--output", f"{out}/", timeout=600)
    assert result.returncode == 0, result.stderr
    written = result.stdout.splitlines()
    assert len(written) == 3 and len(set(written)) == 3, result.stdout
    by_title = {}
    for m4b in out.glob("*.m4b"):
        chapters = ffprobe_chapters(m4b)
        by_title[chapters[0][0]] = chapters
    for book in books:
        chapters = by_title[chapter_titles(book)[0]]
        assert [t for t, _, _ in chapters] == chapter_titles(book)
        for title, start, end in chapters:
            assert 1.0 < end - start < 15.0, (book.name, title, start, end)  # a spoken sentence, not silence
    assert set(summary_rows(result.stderr).values()) == {"done"}

