"""Word's PDFs of reports and forms (invented text, PDFs written by hand): a line the document repeats is text,
not a running head; an outline's heading is no title or author; letter-spaced text is read as its words."""
from __future__ import annotations

from app.book import load_book
from tests.formats.test_pdf_pen import _lines, _pdf, _text

_CLAIM = "(The board reviewed every claim from the harbour again before the season closed.)"
_TIDES = ["(The tide tables were printed in the spring and nailed to the door of the office,)",
          "(where the pilots read them each morning before they took the boats out of the bay.)"]


def test_a_line_the_document_repeats_inside_its_pages_is_read_where_it_opens_a_page(tmp_path):
    # A report built from boilerplate repeats whole lines; on many pages one of them is the first line. It
    # stands inside the pages as often as at their tops: a line of the text, read wherever it stands. The
    # running head, set apart at every page's top and nowhere else, is not read.
    pages = [b"BT /F1 9 Tf 72 742 Td (Harbour Board Annual Review) Tj ET\n"
             + _lines([_CLAIM, *_TIDES, _CLAIM, *_TIDES], 90) for _ in range(9)]
    text = _text(_pdf(tmp_path / "claims.pdf", pages))
    assert text.count("reviewed every claim from the harbour") == 18, text
    assert "Annual Review" not in text, text


def test_an_outline_heading_over_the_text_on_the_first_page_is_no_title(tmp_path):
    # A report with no title page: its first page opens with its first section's heading, which the outline
    # names among others, and the text begins under it. That is a chapter's title, not the document's.
    first = b"BT /F1 20 Tf 72 692 Td (Introduction) Tj ET\n" + _lines(_TIDES * 3, 140)
    second = b"BT /F1 20 Tf 72 692 Td (Soundings) Tj ET\n" + _lines(_TIDES * 3, 140)
    book = load_book(_pdf(tmp_path / "harbour-report.pdf", [first, second],
                          [("Introduction", 0, 80), ("Soundings", 1, 80)]))
    assert book.title == "harbour-report", book.title
    assert [c.title for c in book.chapters] == ["Introduction", "Soundings"]


def test_a_section_heading_under_the_title_is_no_author(tmp_path):
    # The title page's title, then the first section's heading in smaller type: capitalised words, as a
    # name is, but the outline names it as a section. The document names no author.
    first = (b"BT /F1 24 Tf 72 692 Td (Harbour Survey) Tj ET\n"
             b"BT /F1 14 Tf 72 652 Td (Tide Tables) Tj ET\n" + _lines(_TIDES * 3, 170))
    second = b"BT /F1 14 Tf 72 692 Td (Soundings) Tj ET\n" + _lines(_TIDES * 3, 130)
    book = load_book(_pdf(tmp_path / "survey.pdf", [first, second], [("Tide Tables", 0, 125), ("Soundings", 1, 85)]))
    assert book.title == "Harbour Survey", book.title
    assert book.author != "Tide Tables", book.author
