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


def _tracked(words: list[str], kern: int = -270) -> bytes:
    """A line as Word writes expanded text: every letter and space its own string, moved on by `kern`."""
    return b"[" + b"".join(b"(%s)%d" % (c.encode("latin-1"), kern) for c in " ".join(words)) + b"] TJ"


def test_text_set_with_expanded_character_spacing_is_read_as_its_words(tmp_path):
    # Word's "Expanded by 3 pt": each letter drawn 3 points on from the last, the spaces too. PDFium makes up
    # a space between every two letters ("k e e p e r"); the file spaces its other words with space
    # characters, so those gaps are the tracking, and the words are read, parted where a space widens the gap.
    spaced = b"BT /F1 11 Tf 72 678 Td " + _tracked("The keeper lit the lamp early.".split()) + b" ET\n"
    page = _lines(["(The night was calm and the boats lay still in the harbour below the light.)"], 100) + spaced \
        + _lines(["(Nobody on the quay had seen a ship come in since the storm of the spring.)"], 128)
    text = _text(_pdf(tmp_path / "keeper.pdf", [page]))
    assert "The keeper lit the lamp early." in text, text


def test_single_letters_a_tex_file_spaces_without_space_characters_stay_apart(tmp_path):
    # A guard: TeX writes no space characters; PDFium makes up every word space. Its "x y z" are three words (guard: main reads them so too).
    def tex(words: list[str], top: int) -> bytes:
        return b"BT /F1 11 Tf 72 %d Td [%s] TJ ET\n" % (792 - top, b"-333".join(b"(%s)" % w.encode() for w in words))
    page = tex("The surveyor marked the three corners of the field".split(), 100) \
        + tex("as x y z on the chart he drew for the county that evening.".split(), 114)
    text = _text(_pdf(tmp_path / "field.pdf", [page]))
    assert "as x y z on the chart" in text, text


_COLUMNS = [["(The mill stood by the)", "(river for a hundred)", "(years before the flood)", "(carried its wheel away)",
             "(one night in the spring.)", "(The miller built it again)", "(from the stones he found)"],
            ["(The school at the ford)", "(had one room and a stove)", "(that the children fed)", "(with wood they carried)",
             "(from home each morning)", "(through the long winter)", "(when the snow was deep.)"],
            ["(The market was held on)", "(the green every week,)", "(and the farmers came in)", "(with their carts before)",
             "(the sun was up to sell)", "(their eggs and cheese)", "(to the people of the town.)"]]


def test_a_page_in_three_columns_is_read_column_by_column(tmp_path):
    # Word's "Three" columns: each column's lines drawn after the last column's, on the same heights. The page
    # has two gutters; each column is read whole before the next, from the left.
    page = b"".join(b"BT /F1 10 Tf %d %d Td %s Tj ET\n" % (72 + 180 * c, 692 - 13 * k, t.encode("latin-1"))
                    for c, col in enumerate(_COLUMNS) for k, t in enumerate(col))
    text = _text(_pdf(tmp_path / "columns.pdf", [page]))
    assert "carried its wheel away one night in the spring." in text, text
    assert text.index("from the stones he found") < text.index("The school at the ford") \
        < text.index("when the snow was deep.") < text.index("The market was held on"), text


def test_numbered_lines_of_a_page_set_in_small_type_throughout_are_its_text(tmp_path):
    # A form or a list in small print fills a page in a type smaller than the book's body, its numbered
    # entries down to the page's foot. With no text of the body's size above them they are no footnotes.
    story = _lines(_TIDES * 12, 90)
    entries = [f"({n}. The pilot of the {w} boat signs the book at the office before the tide turns.)"
               for n, w in enumerate(["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                                      "ninth", "tenth", "eleventh", "twelfth"], start=1)]
    small = b"".join(b"BT /F1 9 Tf 72 %d Td %s Tj ET\n" % (692 - 40 * k, t.encode("latin-1")) for k, t in enumerate(entries))
    text = _text(_pdf(tmp_path / "pilots.pdf", [story, story, small]))
    assert all(f"pilot of the {w} boat" in text for w in ("first", "seventh", "twelfth")), text


def _row(cells: list[str], top: int) -> bytes:
    return b"".join(b"BT /F1 11 Tf %d %d Td (%s) Tj ET\n" % (72 + 170 * k, 792 - top, c.encode("latin-1"))
                    for k, c in enumerate(cells))


def test_a_long_tables_header_row_repeated_atop_its_pages_is_read_once(tmp_path):
    # A long table repeats its header row atop every page it runs over; a second table with the same header
    # starts inside a page. The repeats atop the pages are print furniture: the header is read where each
    # table starts (a guard: the repeated text of the rule above is no table row).
    head = ["Name", "Berth", "Tonnage"]
    boats = [[f"Boat {w}", f"Quay {n}", f"{100 + n} tons"] for n, w in enumerate(
        "Alder Birch Cedar Dunlin Egret Finch Gannet Heron Ibis Jackdaw".split(), start=1)]
    pages = []
    for p in range(6):
        ops = _row(head, 80) + b"".join(_row(b, 100 + 18 * k) for k, b in enumerate(boats))
        if p % 2:
            ops += _lines(_TIDES, 320) + _row(head, 360) + b"".join(_row(b, 380 + 18 * k) for k, b in enumerate(boats))
        pages.append(ops)
    text = _text(_pdf(tmp_path / "berths.pdf", pages))
    assert text.count("Name; Berth; Tonnage") == 3, text


def test_a_short_chapters_own_running_head_facing_the_books_goes_too(tmp_path):
    # Facing pages: the even ones head "12   A Book's Title", the odd ones "A Chapter's Title   13". A chapter of
    # two pages carries its own head once on each side, too few to repeat: it stands where the book's title
    # heads the other pages, numbered as the page, set off from the text, and goes with them.
    chapters = ["Harbour Lights", "The Mill Road", "Winter Fair", "Lantern Hill", "North Gate"]
    said = [f"(On day {k} the {w} morning was bright and the road ran down to the river past the mill.)"
            for k, w in enumerate(["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                                   "ninth", "tenth"])]
    pages = []
    for k in range(10):
        title = chapters[k // 2]
        head = f"({k + 1}   Book Of Small Towns)" if k % 2 else f"({title}   {k + 1})"
        opening = b"BT /F1 20 Tf 72 682 Td (%s) Tj ET\n" % title.encode() if k % 2 == 0 else b""
        pages.append(_lines([head], 50) + opening + _lines([said[k]], 150))
    book = load_book(_pdf(tmp_path / "towns.pdf", pages, outline=[(t, 2 * i, 110) for i, t in enumerate(chapters)]))
    assert [c.title for c in book.chapters] == chapters
    for c in book.chapters:
        assert c.paragraphs[0] == c.title and c.title not in " ".join(c.paragraphs[1:]), c.paragraphs
    assert "Book Of Small Towns" not in " ".join(p for c in book.chapters for p in c.paragraphs)
