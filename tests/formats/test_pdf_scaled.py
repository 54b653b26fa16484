"""Pages a browser engine prints (text drawn through a scaling matrix, in runs of glyphs), running-head places,
and a title page two pages before a larger "Contents" (invented text)."""
from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from app.book import load_book
from tests.formats.test_pdf import _typed_pdf

#: CSS pixels drawn at 0.375 (wkhtmltopdf's page): a 16 px font prints at 6 points.
_SCALE = 0.375
_PX = 16


def _text_obj(doc, font: bytes, text: str, x: float, y: float):
    obj = raw.FPDFPageObj_NewTextObj(doc.raw, font, ctypes.c_float(_PX))
    buf = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
    raw.FPDFPageObj_Transform(obj, _SCALE, 0, 0, _SCALE, x, 792 - y)
    return obj


def _right(obj) -> float:
    left, bottom, right, top = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
    return right.value


def _engine_pdf(path, lines: list[list[tuple[str, bytes, float]]], pitch: float = 7.1):
    """Write one page as a browser engine prints it: each line (top down, `pitch` apart) a row of runs
    (text, font, gap before it in points), each run its own text object scaled by _SCALE, placed where the
    run before it ends."""
    doc = pdfium.PdfDocument.new()
    page = doc.new_page(612, 792)
    for k, runs in enumerate(lines):
        x = 40.0
        for text, font, gap in runs:
            obj = _text_obj(doc, font, text, x + gap, 80 + pitch * k)
            raw.FPDFPage_InsertObject(page.raw, obj)
            x = _right(obj)
        raw.FPDFPage_GenerateContent(page.raw)
    doc.save(str(path))
    return path


_H, _C = b"Helvetica", b"Courier"
_SPACE = 1.7  # a word space at 6 points


def test_a_browser_engines_scaled_runs_are_read_as_its_lines_and_words(tmp_path):
    # The engine draws 16 px glyphs at 0.375 and starts a run wherever kerning or a style changes, often
    # inside a word ("lan" + "tern"); lines stand 7.1 points apart, nearer than the unscaled size. PDFium
    # measures such text with its unscaled size, so it breaks lines at runs and misses the breaks between
    # lines. Read by the printed size and the runs' places: each line whole, each word whole, a word space
    # where a run starts a space apart, and one before a run in another font set a little apart (code).
    lines = [
        [("The lan", _H, 0), ("tern was lit at dusk by the keeper", _H, 0), ("of the harbour,", _H, _SPACE)],
        [("who climbed the stair each night and", _H, 0), ("wrote the hour in a book", _H, _SPACE)],
        [("called", _H, 0), ("tower.log", _C, 0.8), ("that he kept on the shelf by the door of", _H, _SPACE)],
        [("the lamp room, where the wind came in under the sill and the glass", _H, 0)],
        [("rattled in its frame until the mor", _H, 0), ("ning light came over the hills.", _H, 0)],
    ]
    text = " ".join(p for c in load_book(_engine_pdf(tmp_path / "harbour.pdf", lines)).chapters for p in c.paragraphs)
    assert "The lantern was lit at dusk by the keeper of the harbour, who climbed the stair each night and " \
           "wrote the hour in a book called tower.log that he kept on the shelf" in text, text
    assert "until the morning light came over the hills." in text, text


def test_a_browser_engines_text_is_measured_at_its_printed_size():
    from app.book.formats.pdflayout import FontCache, page_lines

    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = _engine_pdf(Path(tmp) / "size.pdf", [[("A line of small print in a browser's page.", _H, 0)]])
        doc = pdfium.PdfDocument(str(path))
        page = doc[0]
        textpage = page.get_textpage()
        lines = page_lines(textpage, 0, page.get_height(), FontCache())
        assert [round(ln.size, 1) for ln in lines] == [6.0], lines
        textpage.close()
        page.close()
        doc.close()


_FIELD = ["the orchard was planted in rows of twelve, each row a different kind of apple, and the",
          "old gardener knew every tree by the shape of its branches against the winter sky, though",
          "he could not read the labels the nursery had tied to them when they were young."]
_STARTS = ["Early in the spring", "When the frost lifted", "By the first of May", "In the long dry summer",
           "Once the pickers came", "After the last cart left", "Before the first frost", "On the coldest night"]


def test_a_code_line_repeated_at_page_tops_in_several_places_marks_no_running_heads_place(tmp_path):
    # A code sample's line ("import orchard") opens three pages, each time at another height and set apart
    # by its block's padding; it repeats as a running head does, yet stands at each height once. A place
    # where heads stand holds one on many pages: the first lines of the other pages at those heights are
    # text and are read (the running head above, at one place on every page, still goes).
    pages = []
    for n, start in enumerate(_STARTS):
        lines = [(72, 45, 10, "The Orchard Handbook"), (530, 45, 10, str(n + 1))]
        body = [f"{start} {_FIELD[0]}", *_FIELD[1:]]
        if n in (0, 2, 4):
            top = 70 + 10 * (n // 2)
            lines += [(72, top, 10, "import orchard")]
            lines += [(72, top + 30 + 12 * k, 10, t) for k, t in enumerate(body)]
        else:
            lines += [(72, 70 + 10 * (n % 3) + 12 * k, 10, t) for k, t in enumerate(body)]
        pages.append(lines)
    book = load_book(_typed_pdf(tmp_path / "orchard.pdf", pages))
    text = " ".join(p for c in book.chapters for p in c.paragraphs)
    for start in _STARTS:
        assert f"{start} the orchard was planted" in text, (start, text)
    assert "Orchard Handbook" not in text, text


def test_a_title_page_before_a_larger_contents_heading_names_the_book(tmp_path):
    # LaTeX's report class: the title page's title at 17 points, its author with an address under it, an
    # abstract, then "Contents" set at 25 points. The metadata's title is the file the PDF was made from.
    title_page = [(200, 300, 17, "Kettle 3.02"), (180, 350, 12, "Ann Marlowe (ann@example.org)"),
                  (210, 364, 12, "first written by Tom Riley"), (250, 400, 12, "2001-NOW")]
    abstract = [(270, 300, 10, "Abstract"),
                (110, 330, 10, "Kettle is a small program that boils a description of a recipe down to its"),
                (110, 342, 10, "steps, and prints them as a card for the kitchen wall or as a web page.")]
    contents = [(110, 200, 25, "Contents"), (110, 270, 10, "1 Introduction 5"), (110, 290, 10, "2 Recipes 9")]
    chapter = [(110, 120, 25, "Chapter 1"), (110, 170, 25, "Introduction"),
               (110, 220, 10, "Kettle reads a recipe written in plain words and finds its steps, one to a line,"),
               (110, 232, 10, "so that a cook can follow them without turning a page with floury hands.")]
    path = _typed_pdf(tmp_path / "kettle.pdf", [title_page, abstract, contents, chapter])
    book = load_book(path)  # PDFium writes no title into the metadata: the title page names the book
    assert (book.title, book.author) == ("Kettle 3.02", "Ann Marlowe"), (book.title, book.author)


def test_a_name_in_the_bodys_size_over_a_larger_imprint_heading_names_no_book(tmp_path):
    # A first page that prints only the author and a date in the text's size, then an "Imprint" page set
    # larger: no title is printed, so the file's name stands (not the author's line, not "Imprint").
    first = [(240, 83, 12, "Ann Marlowe"), (237, 107, 12, "2024-02-05")]
    imprint = [(73, 132, 14, "Imprint")] + [
        (72, 270 + 14 * k, 12, t) for k, t in enumerate([
            "This edition was set by hand from the printed copy of the first edition and checked",
            "against the second, which corrects a few words; it is free to read and to share."])]
    chapter = [(73, 132, 14, "I"), (72, 270, 12, "The boat came in at noon, and the harbour master wrote its name"),
               (72, 284, 12, "in the book he kept by the window, as he had done every day for years.")]
    book = load_book(_typed_pdf(tmp_path / "a-day-by-the-sea.pdf", [first, [], imprint, chapter]))
    assert book.title == "a-day-by-the-sea", book.title
