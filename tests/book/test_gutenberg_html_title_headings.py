"""Gutenberg HTML conventions (issue 32): a title page set in chapter-level headings, headings with a line or
two under them, and prefaces by other names.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_unlisted import _PROSE, _book  # one invented book frame for both files


def test_title_page_lines_set_as_chapter_headings_are_no_chapters(tmp_path):
    # The title, and the author over a line of the imprint, each an <h2> like the stories after them.
    body = ("<h2>The Winter Lantern</h2><p>The Winter Lantern</p><h2>Ann Marsh Lee</h2><p>AND OTHER TALES BY</p>"
            + "".join(f"<h2>Part {k}</h2>{_PROSE}" for k in range(1, 4)))
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["Part 1", "Part 2", "Part 3"]


def test_a_bare_title_over_the_title_pages_lines_goes_with_them(tmp_path):
    body = ("<h2>THE WINTER LANTERN</h2><h2>ANN MARSH LEE</h2><p>Author of Six Plates. London, the Mill Press.</p>"
            + "".join(f"<h2>THE {n} VOYAGE</h2>{_PROSE}" for n in ("FIRST", "SECOND", "THIRD")))
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["THE FIRST VOYAGE", "THE SECOND VOYAGE", "THE THIRD VOYAGE"]


def test_a_short_first_chapter_that_names_itself_a_chapter_stays_one(tmp_path):
    body = "<h2>CHAPTER I</h2><p>It was cold.</p>" + "".join(f"<h2>CHAPTER {r}</h2>{_PROSE}" for r in ("II", "III"))
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["CHAPTER I", "CHAPTER II", "CHAPTER III"]


def test_a_signature_set_as_a_heading_between_letters_is_the_letters_text(tmp_path):
    # Unlisted headings of a line or two between chapters (a signature, a date line) close the chapter before.
    body = ("<h2>THE FIRST LETTER</h2>" + _PROSE + "<h2>ANN LEE,</h2><p>At the mill, in May.</p>"
            "<h2>THE SECOND LETTER</h2>" + _PROSE + "<h2>THE THIRD LETTER</h2>" + _PROSE)
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["THE FIRST LETTER", "THE SECOND LETTER", "THE THIRD LETTER"]
    assert "ANN LEE," in book.chapters[0].paragraphs


def test_a_part_label_alone_over_its_chapters_still_titles_the_next(tmp_path):
    body = "".join(f"<h2>THE {n} VOYAGE</h2>{_PROSE}" for n in ("FIRST", "SECOND")) + (
        "<h2>THE HOMECOMING</h2><h2>THE THIRD VOYAGE</h2>" + _PROSE)
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters][-1] == "THE HOMECOMING: THE THIRD VOYAGE"


def test_a_prefatory_note_before_the_listed_chapters_is_read_as_a_chapter(tmp_path):
    rows = "".join(f'<p><a href="#c{k}">ADDRESS {k}</a></p>' for k in range(1, 4))
    body = "".join(f'<h2 id="c{k}">ADDRESS {k}</h2>{_PROSE}' for k in range(1, 4))
    for name in ("PREFATORY NOTE.", "TRANSLATOR'S NOTE.", "Introductory Remarks"):
        book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + f"<h2>{name}</h2>" + _PROSE + body)
        assert [c.title for c in book.chapters] == [name, "ADDRESS 1", "ADDRESS 2", "ADDRESS 3"]


def test_a_publishers_note_before_the_listed_chapters_is_front_matter(tmp_path):
    rows = "".join(f'<p><a href="#c{k}">ADDRESS {k}</a></p>' for k in range(1, 4))
    body = "".join(f'<h2 id="c{k}">ADDRESS {k}</h2>{_PROSE}' for k in range(1, 4))
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + "<h2>PUBLISHER'S NOTE</h2><p>Schools asked for it.</p>" + body)
    assert [c.title for c in book.chapters] == ["ADDRESS 1", "ADDRESS 2", "ADDRESS 3"]


def _parts_listing() -> str:
    rows = ""
    for part, chapters in (("FIRST PART.", (1, 2)), ("SECOND PART.", (3, 4))):
        rows += f'<h4><a href="#p{chapters[0]}">{part}</a></h4>'
        for k in chapters:
            rows += f'<p><a href="#c{k}">CHAPTER {k}.</a></p><p>THE VOYAGE {k}.</p><p>Storms at sea—A harbour—The crew.</p>'
    return rows


def _parts_body() -> str:
    body = ""
    for part, chapters in (("PART I.", (1, 2)), ("PART II.", (3, 4))):
        body += f'<h2 id="p{chapters[0]}">{part}</h2>'
        body += "".join(f'<h3 id="c{k}">CHAPTER {k}.</h3>{_PROSE * 3}' for k in chapters)
    return body


def test_a_contents_heading_ends_a_list_of_illustrations_running_up_to_it(tmp_path):
    # The pictures' links and the contents' links stand one after the other: read as one listing, the
    # pictures point at no headings and the whole listing was refused, or only its second half was taken.
    pictures = "<h3>LIST OF ILLUSTRATIONS</h3>" + "".join(
        f'<p><a href="#f{k}">A view of the harbour {k}</a></p>' for k in range(1, 5))
    figures = "".join(f'<p id="f{k}">[Picture]</p>' for k in range(1, 5))
    book = _book(tmp_path, pictures + "<h3>TABLE OF CONTENTS.</h3>" + _parts_listing() + figures + _parts_body())
    titles = [c.title for c in book.chapters]
    assert len(titles) == 4 and titles[0].startswith("PART I") and "CHAPTER 1" in titles[0], titles
    assert "CHAPTER 3" in titles[2] and titles[1] == "CHAPTER 2." and titles[3] == "CHAPTER 4.", titles


def test_a_part_entry_set_as_a_heading_between_synopses_continues_the_listing(tmp_path):
    book = _book(tmp_path, "<h3>CONTENTS</h3>" + _parts_listing() + _parts_body())
    titles = [c.title for c in book.chapters]
    assert len(titles) == 4 and "CHAPTER 1" in titles[0] and "CHAPTER 3" in titles[2], titles


def test_the_first_chapter_of_a_last_piece_under_its_title_heading_is_a_chapter(tmp_path):
    # The contents lists the first piece's chapters; the second piece's title heading stands over its own
    # "CHAPTER I." (one level down), then its further chapters: the first is a chapter like the others.
    names = ("THE VOYAGE OUT", "THE HARBOUR", "THE STORM")
    rows = "".join(f'<p><a href="#c{k}">{r}.</a> {n}</p>' for k, (r, n) in enumerate(zip(("I", "II", "III"), names)))
    first = "<h2>THE FIRST VOYAGES</h2>" + "".join(
        f'<h3 id="c{k}">CHAPTER {r}.<br/>{n}.</h3>{_PROSE * 4}' for k, (r, n) in enumerate(zip(("I", "II", "III"), names)))
    second = "<h2>THE HOMECOMING</h2>" + "".join(
        f"<h3>CHAPTER {r}.<br/>THE ROAD {r}.</h3>{_PROSE}" for r in ("I", "II"))
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + first + second)
    titles = [c.title for c in book.chapters]
    assert len(titles) == 5 and "CHAPTER I: THE ROAD I." in titles[3], titles
