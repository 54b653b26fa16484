"""An FB2's chapters are its own table of contents: the main body's section tree (FB2s the tests write)."""
from __future__ import annotations

from app.book import load_book
from app.book.model import ReadOptions

_NS = "http://www.gribuser.ru/xml/fictionbook/2.0"


def _para(n: int, word: str) -> str:
    return "".join(f"<p>The {word} kept the lamp lit through the night number {k} of the long winter.</p>"
                   for k in range(n))


def _section(title: str | None, body: str) -> str:
    head = f"<title><p>{title}</p></title>" if title else ""
    return f"<section>{head}{body}</section>"


def _fb2(tmp_path, sections: str, extra: str = "", name: str = "book.fb2"):
    path = tmp_path / name
    path.write_text(f"<?xml version='1.0' encoding='utf-8'?><FictionBook xmlns='{_NS}' "
                    "xmlns:l='http://www.w3.org/1999/xlink'><description><title-info>"
                    "<author><first-name>Mira</first-name><last-name>Vostok</last-name></author>"
                    "<book-title>The Lighthouse Keepers</book-title><lang>en</lang></title-info></description>"
                    f"<body><title><p>The Lighthouse Keepers</p></title>{sections}</body>{extra}</FictionBook>",
                    encoding="utf-8")
    return path


def test_parts_over_chapters_read_the_chapters_announcing_their_part(tmp_path):
    # FictionBook Editor's parts: a part with an epigraph and no text of its own, its chapters titled
    # sections; one chapter long enough to hold most of its part.
    epigraph = "<epigraph><p>The sea remembers every keeper.</p></epigraph>"
    part_one = _section("Part One: The Coast", epigraph + _section("Chapter 1. Arrival", _para(5, "keeper"))
                        + _section("Chapter 2. The Storm", _para(120, "storm")))
    part_two = _section("Part Two: The Island", _section("Chapter 3. The Boat", _para(6, "boatman"))
                        + _section("Chapter 4. Home", _para(6, "child")))
    book = load_book(_fb2(tmp_path, part_one + part_two))
    assert [c.title for c in book.chapters] == [
        "Part One: The Coast: Chapter 1. Arrival", "Chapter 2. The Storm",
        "Part Two: The Island: Chapter 3. The Boat", "Chapter 4. Home"]
    # The part's epigraph is read with its first chapter.
    assert "The sea remembers every keeper." in book.chapters[0].paragraphs


def test_chapters_numbered_afresh_in_each_part_all_name_their_part(tmp_path):
    parts = "".join(_section(name, "".join(_section(t, _para(4, "reader")) for t in ("1", "2", "3")))
                    for name in ("Book One", "Book Two"))
    titles = [c.title for c in load_book(_fb2(tmp_path, parts)).chapters]
    assert titles == ["Book One: 1", "Book One, 2", "Book One, 3", "Book Two: 1", "Book Two, 2", "Book Two, 3"]


def test_a_chapter_with_numbered_sections_stays_one_chapter(tmp_path):
    # A chapter over its sections "1.1.", "1.2." (and an untitled opening): a chapter, not a part.
    chapter = _section("Chapter 1 Light", _section(None, _para(2, "pilot")) + "".join(
        _section(f"1.{k}. Lens number {k}", _para(30, "lens")) for k in range(1, 6)))
    intro = _section("Introduction", _para(3, "author"))
    book = load_book(_fb2(tmp_path, intro + chapter + _section("Chapter 2 Dark", _para(3, "night"))))
    assert [c.title for c in book.chapters] == ["Introduction", "Chapter 1 Light", "Chapter 2 Dark"]


def test_untitled_top_sections_are_one_chapter_each_never_split_at_a_bold_line(tmp_path):
    # calibre's FB2: one untitled section a file, a chapter's number set as a bold line inside it.
    sections = "".join(_section(None, f"<p><strong>CHAPTER {n}</strong></p><p><strong>The Tide</strong></p>"
                                + _para(40, "keeper") + "<p><strong>Chapter Ten</strong></p>" + _para(5, "gull"))
                       for n in ("I", "II", "III"))
    title_page = _section(None, "<p>The Lighthouse Keepers</p><p>Mira Vostok</p>")
    path = _fb2(tmp_path, title_page + sections)
    # The title page is front matter; each section is named by its opening bold label and the line under it.
    assert [c.title for c in load_book(path).chapters] == ["CHAPTER I: The Tide", "CHAPTER II: The Tide",
                                                          "CHAPTER III: The Tide"]
    assert len(load_book(path, options=ReadOptions(include_matter=True)).chapters) == 4


def test_a_bold_line_in_a_titled_book_names_no_section(tmp_path):
    sections = _section("Chapter 1. Arrival", _para(3, "keeper")) + _section(
        None, "<p><strong>Interlude</strong></p>" + _para(400, "gull"))
    titles = [c.title for c in load_book(_fb2(tmp_path, sections)).chapters]
    assert titles == ["Chapter 1. Arrival", "The Lighthouse Keepers"]


def test_notes_body_is_notes_not_chapters(tmp_path):
    notes = ("<body name='notes'><title><p>Notes</p></title>"
             + "".join(_section(str(n), f"<p>A note on the lamp oil, number {n}.</p>") for n in (1, 2)) + "</body>")
    text = _section("Chapter 1. Arrival", "<p>The keeper lit the lamp.<a l:href='#n1' type='note'>1</a></p>"
                    + _para(3, "keeper")) + _section("Chapter 2. Departure", _para(3, "sailor"))
    book = load_book(_fb2(tmp_path, text, extra=notes))
    assert [c.title for c in book.chapters] == ["Chapter 1. Arrival", "Chapter 2. Departure"]
    assert not any("lamp oil" in p for c in book.chapters for p in c.paragraphs)
