"""Kindle books read as their own table of contents says (issue 33): a Kindle book's NCX entries are its
chapters and their sub-entries its sections, where the same book as an EPUB keeps the EPUB reader's rule for
a label over its divisions. The books are invented; the Kindle book is made by calibre's ebook-convert."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from app.book import load_book
from app.book.formats.epubnested import located
from app.book.formats.epubtoc import Entry
from app.book.structure.blocks import Block, Document
from tests.book.test_structure import li, prose, titles, toc, write_epub


def _chapter(n: int, introduction: int) -> str:
    # pandoc's layout: a chapter's heading over its named sections, straight or over a few words of its own
    # (calibre splits the chapter into files at each section's heading).
    sections = "".join(f'<section id="c{n}-s{k}"><h2>Section {n}.{k} of the chapter</h2>{prose(120)}</section>'
                       for k in (1, 2))
    return f'<section id="c{n}"><h1>Chapter heading {n}</h1>{prose(introduction) if introduction else ""}{sections}</section>'


def _book(tmp_path, introduction: int = 0):
    nav = toc(*(li(f"c{n}.xhtml", f"Chapter heading {n}",
                   *(li(f"c{n}.xhtml#c{n}-s{k}", f"Section {n}.{k} of the chapter") for k in (1, 2)))
                for n in (1, 2)))
    return write_epub(tmp_path / "manual.epub", [(f"c{n}.xhtml", "en", _chapter(n, introduction)) for n in (1, 2)], nav)


@pytest.mark.skipif(not shutil.which("ebook-convert"),
                    reason="calibre's ebook-convert makes the Kindle book (scripts/system-deps.sh)")
@pytest.mark.parametrize("introduction", [0, 30])
def test_a_kindle_books_ncx_entries_are_its_chapters_and_their_sub_entries_its_sections(tmp_path, introduction):
    epub = _book(tmp_path, introduction)
    # As an EPUB, a chapter of no or few words over its sections is a label over them (the EPUB reader's rule).
    assert len(load_book(epub).chapters) == 4
    azw3 = tmp_path / "manual.azw3"
    subprocess.run(["ebook-convert", str(epub), str(azw3)], capture_output=True, timeout=300, check=True)
    book = load_book(azw3)
    assert titles(book) == ["Chapter heading 1", "Chapter heading 2"]
    assert [sum("Section 1." in p for p in c.paragraphs) for c in book.chapters] == [2, 0]


def _doc(*blocks: tuple[str, int, str]) -> Document:
    return Document([Block(text, level, {anchor} if anchor else set()) for text, level, anchor in blocks])


def test_only_a_kindle_books_entry_with_no_text_or_section_in_its_own_file_gives_way_to_the_entries_under_it():
    words = " ".join(["word"] * 40)
    docs = {
        # A chapter split over two files (a converter's size limit): its sub-entry in the next file.
        "a.html": _doc(("Opening", 1, ""), ("Morning", 2, "m"), (words, 0, "")),
        "a2.html": _doc(("Evening", 2, "e"), (words, 0, "")),
        # A chapter with words of its own, its one section in the next file.
        "h.html": _doc(("Harbour", 1, ""), (words, 0, "")),
        "h2.html": _doc(("Quay", 2, ""), (words, 0, "")),
        # A part's title page, its chapters in files of their own.
        "p.html": _doc(("Part Two", 1, "")),
        "b.html": _doc(("Crossing", 1, ""), (words, 0, "")),
        "c.html": _doc(("Landing", 1, ""), (words, 0, "")),
    }
    entries = [Entry("Opening", "a.html", "", 1), Entry("Morning", "a.html", "m", 2),
               Entry("Evening", "a2.html", "e", 2), Entry("Harbour", "h.html", "", 1),
               Entry("Quay", "h2.html", "", 2), Entry("Part Two", "p.html", "", 1),
               Entry("Crossing", "b.html", "", 2), Entry("Landing", "c.html", "", 2)]
    order = list(docs)
    assert [e.title for _, e in located(entries, docs, order, kindle=True)] == [
        "Opening", "Harbour", "Part Two", "Crossing", "Landing"]
    # Any other EPUB: a sub-entry in another file is a chapter.
    assert [e.title for _, e in located(entries, docs, order)] == [
        "Opening", "Evening", "Harbour", "Quay", "Part Two", "Crossing", "Landing"]
