"""Gutenberg HTML conventions (issue 32), continued: the lines of a title page set at the level of the chapters -
mottoes, the book's own title opening a page with no contents after it, a volume's number among its lines.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from app.book import load_book
from app.book.formats.htmltitle import names_title, without_mottoes

_PROSE = "<p>" + "They walked on along the road and talked of many things until the evening came. " * 8 + "</p>"
_TITLES = ["THE FIRST VOYAGE", "THE SECOND VOYAGE", "THE THIRD VOYAGE"]
_CHAPTERS = "".join(f"<h2>{t}</h2>{_PROSE}" for t in _TITLES)
_CONTENTS = "<h2>CONTENTS</h2>" + "".join(f"<p>{t}</p>" for t in _TITLES)
_IMPRINT = "".join(f"<p>{line}</p>" for line in (
    "AUTHOR OF THE WEIR, ETC.", "THE MILL PRESS", "LANTERN AND WEIR. 1894", "Copyright, 1894, by Ann Lee"))
_MOTTO = ("<p>\u201cThe river keeps no count of the wheels it turns, nor of the mills it has outlived; only the "
          "hands that built them, and the bread they made, are remembered in the valley when the stones are "
          "dust, and the river runs on past the empty doors as it ran before there was a wheel to turn or a "
          "miller to count the sacks.\u201d</p><p>ANN MARSH LEE.</p>")


def _book(tmp_path, body: str, title: str = "Tests"):
    path = tmp_path / "book.html"
    path.write_text(f"<html><head><title>{title}</title></head><body>"
                    "<p>*** START OF THE PROJECT GUTENBERG EBOOK TESTS ***</p>"
                    f"{body}<p>*** END OF THE PROJECT GUTENBERG EBOOK TESTS ***</p></body></html>", encoding="utf-8")
    return load_book(path)


def test_a_title_page_with_a_long_signed_motto_is_no_chapter(tmp_path):
    # The title over its subtitle, a motto of sixty words signed on a line of its own, then the imprint; a
    # preface before the contents.
    front = "<h2>VOYAGES,</h2><h4>AND</h4><h2>HOW THEY WERE MADE</h2>" + _MOTTO + _IMPRINT
    chapters = "".join(f"<h2>{t}</h2>{_PROSE * 6}" for t in _TITLES)
    book = _book(tmp_path, front + "<h2>PREFACE</h2>" + _PROSE + _CONTENTS + chapters)
    assert [c.title for c in book.chapters] == ["PREFACE", *_TITLES]


def test_a_motto_signed_after_a_dash_is_left_out_of_the_title_pages_lines():
    lines = ["\u201cThe river keeps no count of the wheels it turns.\u201d\u2014Lee.", "THE MILL PRESS", "1894"]
    assert without_mottoes(lines) == ["THE MILL PRESS", "1894"]


def test_a_quoted_line_with_no_name_after_it_stays_a_line():
    # A quotation unsigned is no motto by this rule: the title page's check sees it as it is.
    lines = ["\u201cThe river keeps no count of the wheels it turns,\u201d said the miller to his son.", "1894"]
    assert without_mottoes(lines) == lines


def test_a_first_chapter_of_prose_with_a_quotation_under_a_name_stays_a_chapter(tmp_path):
    # Prose under the heading: a memoir quoting a line, though it names a year and a press.
    memoir = "<p>\u201cA mill is a clock,\u201d she wrote in 1841.</p><p>ANN LEE.</p>" + _PROSE
    book = _book(tmp_path, "<h2>ANN MARSH LEE</h2>" + memoir + _CONTENTS + _CHAPTERS)
    assert [c.title for c in book.chapters] == ["ANN MARSH LEE", *_TITLES]


def test_a_title_page_opening_with_the_books_title_is_no_chapter_without_a_contents(tmp_path):
    # "THE" as the heading, the rest of the title and the imprint in lines under it; no contents follows.
    front = "<h2>THE</h2>" + "".join(f"<p>{line}</p>" for line in (
        "LANTERN MILL", "WHAT WE DO KNOW", "WHAT WE DON'T KNOW", "ABOUT OUR WEIRS", "BY", "ANN MARSH LEE",
        "Fourth Edition.", "LANTERN: THE MILL PRESS", "SOLD BY", "A. LEE, 18 Mill Street, W.", "MDCCCC"))
    preface = "<h2>PREFACE</h2>" + _PROSE + "<p>A. M. L.</p><p>18 Mill Street.</p>"
    book = _book(tmp_path, front + preface + _CHAPTERS, title="The Lantern Mill: What We Do Know")
    assert [c.title for c in book.chapters] == ["PREFACE", *_TITLES]


def test_a_name_over_imprint_lines_that_is_not_the_title_stays_a_chapter_without_a_contents(tmp_path):
    # The same page under another book's title: it may head the book's first piece (no contents to say).
    front = "<h2>ANN MARSH LEE</h2>" + "".join(f"<p>{line}</p>" for line in (
        "AUTHOR OF THE WEIR, THE FERRY, THE LOCK AND THE BRIDGE", "WITH SIX PLATES BY THE AUTHOR", "THE MILL PRESS",
        "LANTERN AND WEIR", "1894"))
    book = _book(tmp_path, front + _CHAPTERS, title="The Lantern Mill: What We Do Know")
    assert [c.title for c in book.chapters] == ["ANN MARSH LEE", *_TITLES]


def test_the_books_title_is_named_by_its_first_words_across_lines():
    assert names_title(["THE", "LANTERN MILL", "AND ITS WEIR"], "The Lantern Mill: and its Weir")
    assert not names_title(["THE", "MILL PRESS"], "The Lantern Mill")
    assert not names_title(["LANTERN"], "Lantern")  # a one-word title names too little to tell


def test_a_volumes_number_among_the_title_pages_headings_ends_no_title_page(tmp_path):
    # The title's words in headings of two levels, "VOL. II." among them, then the imprint: all the title page's.
    front = ("<h3>THE</h3><h1>MILLS OF THE VALLEY</h1><h3>VOL. II.</h3><h3>THE</h3><h1>MILLS OF THE VALLEY</h1>"
             "<h3>From the Old Records</h3>" + "".join(f"<p>{line}</p>" for line in (
                 "By ANN MARSH LEE.", "IN TWO VOLUMES.")) + "<h3>VOL. II.</h3>" + "".join(
                 f"<p>{line}</p>" for line in ("LANTERN:", "PRINTED FOR THE MILL PRESS.", "1828.")))
    chapters = "".join(f"<h3>{t}</h3>{_PROSE * 6}" for t in _TITLES)
    book = _book(tmp_path, front + "<h3>CONTENTS</h3>" + "".join(f"<p>{t}</p>" for t in _TITLES) + chapters)
    assert [c.title for c in book.chapters][-3:] == _TITLES
    assert len(book.chapters) == 3


def test_a_volume_over_its_chapters_text_stays_a_division(tmp_path):
    # "VOLUME II" at the chapters' level with a chapter's prose under it is the book's, not a title page's line.
    body = "<h2>VOLUME II</h2>" + _PROSE * 3 + _CHAPTERS
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters][0].upper().startswith("VOLUME II")
