"""Conventions of office fields and frames, on small files the tests build (invented text)."""
from __future__ import annotations

import zipfile

from app.book import load_book
from tests.formats.twins import sample

_ODT_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
    '<office:body><office:text>')
_ODT_TAIL = '</office:text></office:body></office:document-content>'


def _odt(tmp_path, body: str):
    real = sample("pandoc-odt-odt-headers.odt")
    out = tmp_path / "made.odt"
    with zipfile.ZipFile(real) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = (_ODT_HEAD + body + _ODT_TAIL).encode() if info.filename == "content.xml" else src.read(info)
            dst.writestr(info, data)
    return load_book(out)


def _all_text(book) -> str:
    return " ".join(" ".join(" ".join(c.paragraphs) for c in book.chapters).split())


def test_odt_cross_reference_reads_the_text_it_shows_but_not_a_page_number(tmp_path):
    # LibreOffice's cross-reference to a heading or bookmark (text:bookmark-ref) shows the target's
    # text on the page; a reference shown as a page number points nowhere when heard.
    book = _odt(tmp_path,
                '<text:h text:outline-level="1"><text:bookmark-start text:name="b1"/>The Mill Pond'
                '<text:bookmark-end text:name="b1"/></text:h>'
                '<text:p>The geese swam there all summer long.</text:p>'
                '<text:p>As told in <text:bookmark-ref text:reference-format="text" text:ref-name="b1">'
                'The Mill Pond</text:bookmark-ref>, on page <text:bookmark-ref text:reference-format="page" '
                'text:ref-name="b1">47</text:bookmark-ref>, they left in autumn.</text:p>')
    text = _all_text(book)
    assert "As told in The Mill Pond, on page , they left in autumn." in text
    assert "47" not in text
