"""Gutenberg HTML conventions (issue 32), continued: "THE END" set as a heading before the book's notes.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_title_page import _CHAPTERS, _TITLES
from tests.book.test_gutenberg_html_unlisted import _PROSE, _book

_NOTES = "<h2>Footnotes:</h2>" + "".join(f"<p>See the miller's account of the year {n}.</p>" for n in range(1890, 1896))


def test_the_end_set_as_a_heading_before_the_footnotes_is_no_chapter(tmp_path):
    # "THE END", an <h2> like the chapters with nothing under it, then the notes gathered under their own heading.
    book = _book(tmp_path, _CHAPTERS + "<h2>THE END</h2>" + _NOTES)
    assert [c.title for c in book.chapters] == _TITLES
    assert book.chapters[-1].paragraphs[-1] == "THE END"


def test_a_last_chapter_with_text_before_the_footnotes_stays_a_chapter(tmp_path):
    book = _book(tmp_path, _CHAPTERS + "<h2>THE HOMECOMING</h2>" + _PROSE + _NOTES)
    assert [c.title for c in book.chapters] == [*_TITLES, "THE HOMECOMING"]
