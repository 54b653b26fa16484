"""Chapter detection, titles, metadata and what is left unread, per format."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.book import load_book
from app.core.errors import BookNotFound, CorruptBook, EmptyBook, UnsupportedFormat

ROOT = Path(__file__).resolve().parents[2]


def _all_text(book) -> str:
    return "\n".join(p for c in book.chapters for p in c.paragraphs)


def test_epub3_chapters_follow_the_nav_toc(book_files):
    book = load_book(book_files["epub3"])
    assert [c.title for c in book.chapters] == [
        "One: The Arrival", "Two: The House", "Three: The Letter", "Four: The Answer"]
    assert [c.index for c in book.chapters] == [1, 2, 3, 4]
    assert (book.title, book.author, book.language) == ("The Test Book", "Ada Writer", "en")


def test_epub3_file_with_two_toc_entries_is_split_at_the_anchors(book_files):
    book = load_book(book_files["epub3"])
    letter, answer = book.chapters[2], book.chapters[3]
    assert letter.paragraphs == ("The Letter", "A letter lay on the table.", "It was unsigned.")
    assert answer.paragraphs == ("The Answer", "She wrote back at once.")


def test_epub3_front_and_back_matter_and_notes_are_not_read(book_files):
    text = _all_text(load_book(book_files["epub3"]))
    for unread in ("COPYRIGHT TEXT", "INDEX TEXT", "ENDNOTE TEXT", "FOOTNOTE TEXT", "CAPTION TEXT", "Ada Writer"):
        assert unread not in text
    # The footnote markers are gone but the sentences around them are intact.
    assert "Mr. Smith arrived at 3.30 p.m. on the train. He carried a small case." in text
    assert "The station was quiet. Nobody came." in text


def test_epub3_cover_image_comes_from_the_manifest(book_files):
    cover = load_book(book_files["epub3"]).cover
    assert cover is not None and cover.media_type == "image/png"
    assert cover.data.startswith(b"\x89PNG")


def test_epub2_ncx_only_with_sections_folded_and_continuation_kept(book_files):
    book = load_book(book_files["epub2"])
    assert [c.title for c in book.chapters] == ["First Light", "Second Wind", "Third Time"]
    assert "Birds sang." in book.chapters[0].paragraphs
    # b2.html is not in the NCX: it continues chapter two.
    assert book.chapters[1].paragraphs[-1] == "The wind kept blowing."
    assert "Contents" not in _all_text(book)
    assert (book.title, book.author, book.language) == ("Old Format", "Bo Author", "en-GB")
    assert book.cover is not None and book.cover.data.startswith(b"\x89PNG")


def test_epub_without_toc_falls_back_to_the_spine(epub2_builder, tmp_path):
    empty_ncx = b'<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap/></ncx>'
    book = load_book(epub2_builder(tmp_path / "notoc.epub", extra={"OEBPS/toc.ncx": empty_ncx}))
    # Cover and contents pages (guide) are skipped; each remaining spine file is a chapter.
    assert [c.title for c in book.chapters][:2] == ["First Light", "Second Wind"]
    assert len(book.chapters) == 4 and book.chapters[2].paragraphs == ("The wind kept blowing.",)


def test_txt_heading_lines_and_metadata(book_files):
    book = load_book(book_files["txt"])
    assert [c.title for c in book.chapters] == ["Chapter I: Down the Road", "Chapter II. The River", "Chapter 3: The End"]
    assert (book.title, book.author) == ("A Plain Tale", "Cy Plain")
    first = book.chapters[0].paragraphs
    # Hard-wrapped lines joined, a line-end hyphen rejoined.
    assert ("It was a bright cold day in April, and the clocks were striking thirteen. "
            "Mr. Jones looked at the well-known square.") in first


def test_txt_without_headings_is_one_chapter_titled_by_the_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Just some words.\n\nAnd a second paragraph.\n")
    book = load_book(path)
    assert len(book.chapters) == 1
    assert book.chapters[0].title == "notes" and book.title == "notes" and book.author == "Unknown"
    assert book.chapters[0].paragraphs == ("Just some words.", "And a second paragraph.")


@pytest.mark.parametrize("heading", ["# The Start", "Chapter 12", "CHAPTER XII", "Part One", "Chapter 1: The Beginning"])
def test_txt_recognises_each_heading_style(tmp_path, heading):
    path = tmp_path / "b.txt"
    path.write_text(f"{heading}\n\nFirst words here.\n\n{heading.replace('1', '2')} again\n\nMore words.\n"
                    if heading.startswith("#") else
                    f"{heading}\n\nFirst words here.\n\nChapter 99\n\nMore words.\n")
    book = load_book(path)
    assert len(book.chapters) == 2
    # A label in capitals is titled in title case ("CHAPTER XII" -> "Chapter XII"), numerals kept.
    assert book.chapters[0].title.casefold() == heading.lstrip("# ").casefold()
    assert book.chapters[0].title != "CHAPTER XII"


def test_txt_prose_starting_with_chapter_is_not_a_heading(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("Chapter 12 began badly for everyone.\n\nThen it improved.\n")
    assert len(load_book(path).chapters) == 1


def test_txt_cp1252_and_bom_are_decoded(tmp_path):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Caf\u00e9 \u201cquoted\u201d.".encode("cp1252"))
    assert load_book(latin).chapters[0].paragraphs == ("Caf\u00e9 \u201cquoted\u201d.",)
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbfHello there.")
    assert load_book(bom).chapters[0].paragraphs == ("Hello there.",)


def test_markdown_headings_and_syntax_stripped(book_files):
    book = load_book(book_files["md"])
    assert [c.title for c in book.chapters] == ["Chapter One", "Chapter Two", "Chapter Three"]
    assert book.title == "The Markdown Book"
    text = _all_text(book)
    assert "Some emphasis, a link and code." in text
    for syntax in ("*", "](", "`", "![", "> ", "http"):
        assert syntax not in text


def test_html_splits_at_the_level_that_divides_it(book_files):
    book = load_book(book_files["html"])
    assert [c.title for c in book.chapters] == ["Opening", "Middle", "Closing"]
    assert (book.title, book.author) == ("Web Book", "Hy Pertext")
    text = _all_text(book)
    assert "First & foremost." in text and "Detail." in text
    for unread in ("SCRIPT_TEXT", "NAV TEXT", "color: red"):
        assert unread not in text


def test_options_override_metadata(book_files):
    book = load_book(book_files["epub3"], title="Mine", author="Me")
    assert (book.title, book.author) == ("Mine", "Me")


def test_sample_book_in_the_repo(tmp_path):
    book = load_book(ROOT / "samples" / "aesop.epub")
    assert [c.title for c in book.chapters] == [
        "The Fox and the Grapes", "The Hare and the Tortoise", "The Crow and the Pitcher"]
    assert 150 <= book.words <= 300
    assert book.cover is not None and "public domain" not in _all_text(book)


def test_sample_builder_regenerates_the_same_book(tmp_path):
    import runpy

    build = runpy.run_path(str(ROOT / "samples" / "make_sample.py"))["build"]
    build(tmp_path / "again.epub")
    again, shipped = load_book(tmp_path / "again.epub"), load_book(ROOT / "samples" / "aesop.epub")
    assert again.chapters == shipped.chapters and again.cover == shipped.cover


@pytest.mark.parametrize("name,error,words", [
    ("missing.epub", BookNotFound, "No such file"),
    ("book.djvu", UnsupportedFormat, ".epub"),
    ("book.pdf", CorruptBook, "not a readable PDF"),
    ("bad.epub", CorruptBook, "not a readable EPUB"),
    ("empty.txt", EmptyBook, "no readable text"),
    ("controls.txt", EmptyBook, "no readable text"),
    ("binary.txt", CorruptBook, "binary"),
])
def test_bad_inputs_give_one_line_errors(tmp_path, name, error, words):
    contents = {"book.djvu": b"AT&TFORM", "book.pdf": b"%PDF-1.4", "bad.epub": b"PK\x03\x04 not really", "empty.txt": b"\n\n  \n",
                "controls.txt": b"\x07\x08 \n\n * * * \n", "binary.txt": bytes(range(32)) * 50}
    path = tmp_path / name
    if name in contents:
        path.write_bytes(contents[name])
    with pytest.raises(error) as exc:
        load_book(path)
    line = exc.value.one_line()
    assert words in line and "\n" not in line and exc.value.hint


def test_control_characters_and_mixed_scripts_are_cleaned(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_bytes("Hello\x07 wor\u00adld\u200b.\x1b[0m Привет, мир. 東京は大きい。 \u0645\u0631\u062d\u0628\u0627.\n\n\x00\x01\n".encode())
    (para,) = load_book(path).chapters[0].paragraphs
    assert para == "Hello world.[0m Привет, мир. 東京は大きい。 \u0645\u0631\u062d\u0628\u0627."
    assert para.isprintable()


def test_a_folder_is_not_a_book(tmp_path):
    with pytest.raises(BookNotFound, match="folder"):
        load_book(tmp_path)
