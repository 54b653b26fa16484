"""Plain-text books that end in their publisher's lists of other books (issue 32, round txt19: the class met in
the most development books' failures, counted by tests/literature/fetched/classify_txt.py).

A printed book's last pages list the publisher's other books: "WORKS BY THE SAME AUTHOR.", a series' name over its
titles, each title priced with its format and binding. Gutenberg's plain texts keep them set apart as the chapters
are; they are no chapter of the book. Each test writes a small book in the convention and reads it with the app.
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book

_NAMES = ["THE LANTERN", "THE QUAY", "THE STORM", "THE TIDE"]
_LISTED = ["A SUMMER ON THE MOOR", "THE MILLER'S DAUGHTER", "TALES OF THE HARBOUR", "THE OLD FERRY"]
_TITLES = ["The Lantern", "The Quay", "The Storm", "The Tide"]


#: A piece's prose: paragraphs one blank line apart (the book's commonest gap).
_prose = "\n\n".join(hard_wrapped(150, w) for w in ("rowed", "sailed", "landed", "slept"))


def _collection(end: str, names: list[str] = _NAMES) -> str:
    """A collection of pieces headed by their names in capitals, set apart by four blank lines, then `end` set so."""
    pieces = "\n\n\n\n\n".join(f"{t}\n\n\n{_prose}" for t in names)
    return f"HARBOUR TALES\n\n\n\n\n{pieces}\n\n\n\n\n{end}"


def _priced(titles: list[str]) -> str:
    return "\n\n".join(f"{t}. A story of the town and the sea. Crown 8vo, cloth, illustrated, $1.25." for t in titles)


def test_by_the_same_author_after_the_last_piece_is_no_chapter(tmp_path):
    # "BY THE SAME AUTHOR" set apart after the last piece as the pieces' names are: no chapter (it was read as a
    # fifth piece).
    book = read_text_book(tmp_path, _collection(f"BY THE SAME AUTHOR\n\n\n{_priced(_LISTED)}"))
    assert [c.title for c in book.chapters] == _TITLES


def test_a_series_priced_after_the_last_piece_is_no_chapter(tmp_path):
    # A series' name over its priced titles ("THE HARBOUR LIBRARY", each title "Crown 8vo, cloth, $1.25"), then a
    # second list ("NEW BOOKS FOR THE YOUNG"): both end the book, neither is a chapter.
    end = (f"THE HARBOUR LIBRARY\n\n\n{_priced(_LISTED)}\n\n\n\n\n"
           f"NEW BOOKS FOR THE YOUNG\n\n\n{_priced(['THE COOPER', 'THE WEAVER'])}")
    book = read_text_book(tmp_path, _collection(end))
    assert [c.title for c in book.chapters] == _TITLES


def test_a_priced_list_under_a_book_s_title_is_no_chapter(tmp_path):
    # The list is headed by one advertised book's name ("THE COOPER"): priced through, it is no chapter either.
    book = read_text_book(tmp_path, _collection(f"THE COOPER\n\n\n{_priced(_LISTED)}"))
    assert [c.title for c in book.chapters] == _TITLES


def test_a_last_piece_named_as_a_list_may_be_stays_a_chapter(tmp_path):
    # The last piece is named "THE OLD STORIES" (a list may be named so) and its text is prose, not priced: it is the book's.
    book = read_text_book(tmp_path, _collection("THE OLD STORIES\n\n\n" + _prose, _NAMES[:3]))
    assert [c.title for c in book.chapters] == _TITLES[:3] + ["The Old Stories"]


def test_a_closing_list_is_read_with_the_matter(tmp_path):
    # The lists are back matter, not lost: read with the book's other matter.
    from app.book.formats.txt import load_text
    from app.book.model import ReadOptions
    path = tmp_path / "book.txt"
    path.write_text(_collection(f"BY THE SAME AUTHOR\n\n\n{_priced(_LISTED)}"), encoding="utf-8")
    book = load_text(path, path.read_bytes(), ReadOptions(include_matter=True))
    assert book.chapters[-1].title == "Back matter"
    assert any("MILLER'S DAUGHTER" in p for p in book.chapters[-1].paragraphs)


# The same convention in a Gutenberg HTML edition: the lists set as <h2> after the last chapter's.
_START = "<p>*** START OF THE PROJECT GUTENBERG EBOOK TESTS ***</p>"
_END = "<p>*** END OF THE PROJECT GUTENBERG EBOOK TESTS ***</p>"
_HTML_PROSE = "<p>" + "They walked on along the road and talked of many things until the evening came. " * 8 + "</p>"


def _html_book(tmp_path, end: str):
    from app.book import load_book
    chapters = "".join(f"<h2>CHAPTER {n}. {t}</h2>{_HTML_PROSE * 3}" for n, t in zip(["I", "II", "III"], _NAMES))
    path = tmp_path / "book.html"
    path.write_text(f"<html><head><title>Tests</title></head><body>{_START}<h1>HARBOUR TALES</h1>{chapters}{end}"
                    f"{_END}</body></html>", encoding="utf-8")
    return load_book(path)


def test_html_lists_after_the_last_chapter_are_no_chapters(tmp_path):
    # "WORKS BY THE SAME AUTHOR." and a series priced through ("THE HARBOUR LIBRARY") as <h2> after the last
    # chapter: no chapters (they were read as the book's fourth and fifth).
    priced = "".join(f"<p>{t}. Crown 8vo, cloth, $1.25.</p>" for t in _LISTED)
    book = _html_book(tmp_path, f"<h2>WORKS BY THE SAME AUTHOR.</h2>{priced}<h2>THE HARBOUR LIBRARY.</h2>{priced}")
    assert len(book.chapters) == 3, [c.title for c in book.chapters]


def test_html_last_chapter_unnumbered_and_unpriced_stays(tmp_path):
    # An unnumbered last heading over prose ("THE OLD STORIES"): the book's chapter, not a list.
    book = _html_book(tmp_path, f"<h2>THE OLD STORIES</h2>{_HTML_PROSE * 3}")
    assert len(book.chapters) == 4 and book.chapters[-1].title.casefold() == "the old stories", [c.title for c in book.chapters]


def test_lists_before_a_transcribers_note_are_no_chapters(tmp_path):
    # The lists, then the transcriber's note closing the file: the note is matter and the lists are still found.
    end = f"BY THE SAME AUTHOR\n\n\n{_priced(_LISTED)}\n\n\n\n\nTRANSCRIBER'S NOTE\n\n\nObvious misprints were corrected."
    book = read_text_book(tmp_path, _collection(end))
    assert [c.title for c in book.chapters] == _TITLES


def test_html_a_publishers_name_over_its_list_goes_with_it(tmp_path):
    # "MESSRS. LEE AND CO.'S" with no text of its own over "NEW BOOKS." and its priced titles: one back matter.
    priced = "".join(f"<p>{t}. Crown 8vo, cloth, $1.25.</p>" for t in _LISTED)
    book = _html_book(tmp_path, f"<h2>MESSRS. LEE AND CO.'S</h2><h2>NEW BOOKS.</h2>{priced}")
    assert len(book.chapters) == 3, [c.title for c in book.chapters]
