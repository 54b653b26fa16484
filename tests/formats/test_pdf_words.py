"""Words and references as a typeset page breaks and prints them, read as a listener hears them (invented text)."""
from __future__ import annotations

from app.book import load_book
from tests.formats.test_pdf import _HERON, _typed_pdf


def _text(path) -> str:
    return " ".join(p for c in load_book(path).chapters for p in c.paragraphs)


def _one_page_text(path, lines: list[str]) -> str:
    """What is heard of one page typeset with these lines, 10 pt, 14 pt apart."""
    return _text(_typed_pdf(path, [[(72, 80 + 14 * k, 10, t) for k, t in enumerate(lines)]]))


def test_a_compound_broken_at_its_hyphen_keeps_it_and_a_hyphenated_word_is_joined(tmp_path):
    # A typesetter breaks "non-zero" at its own hyphen; PDFium marks that hyphen as one it added, as it
    # does the hyphen of "exam-ple". The book's own lines say which is which: it writes "non-zero" and
    # "example" elsewhere, never "nonzero".
    lines = ["The lamp returns a non-zero value when the wick is dry, and the keeper writes it in",
             "his log each night. He keeps one example of every entry the old keeper made, and a",
             "dry wick always gives a non-",
             "zero count in the morning, which the log shows as a short line of ink. The next exam-",
             "ple in the log is the storm of the second winter, when the lamp burned all night long."]
    text = _one_page_text(tmp_path / "lamp.pdf", lines)
    assert "gives a non-zero count" in text, text
    assert "The next example in the log" in text, text
    assert "nonzero" not in text


def test_a_compound_head_the_book_hyphenates_keeps_its_hyphen_before_a_word_it_writes(tmp_path):
    # "non-" heads compounds mid-line ("non-empty"); at a line's end before "negative", a word the book
    # writes alone, it is a compound too. A word the book writes whole ("together") is joined.
    lines = ["Each basket holds a non-empty set of apples and a negative count means the basket is",
             "lost. The count must be non-",
             "negative at the end of the day, when the baskets are brought to-",
             "gether in the barn and the farmer puts them together by the door before the rain came."]
    text = _one_page_text(tmp_path / "baskets.pdf", lines)
    assert "must be non-negative at the end" in text, text
    assert "brought together in the barn" in text, text


def test_a_reference_to_an_anchor_is_said_as_its_title_without_its_page(tmp_path):
    # Texinfo prints a reference to an anchor or an unnumbered node as "see [Title], page N", with no
    # part's word or number; an audiobook has no pages: "see Title". A citation's bracketed number stays.
    lines = ["The ferry leaves at noon (see [the winter timetable], page 36). For the fares, see",
             "[fare tables], page 12, which the office prints each spring; the old guide [12], page 3,",
             "gives the fares of the first year, when the crossing was made by rowing boat alone."]
    text = _one_page_text(tmp_path / "ferry.pdf", lines)
    assert "(see the winter timetable)." in text and "see fare tables, which" in text, text
    assert "guide [12], page 3," in text, text


_ORCHARD = ["the orchard was planted in rows of twelve, each row a different kind of apple, and the",
            "old gardener knew every tree by the shape of its branches against the winter sky, though",
            "he could not read the labels the nursery had tied to them when they were young."]
_OPENINGS = ["Early in the spring", "When the frost lifted", "By the first of May", "In the long dry summer",
             "Once the pickers came", "After the last cart left"]


def test_a_tables_header_repeated_at_page_tops_does_not_take_every_pages_first_line(tmp_path):
    # A long table's header row repeats at the top of each page it runs over, in the text's flow at the
    # first line's height. It is no running head (the head stands apart, above), so the first line of
    # the other pages, at that height too, is text and is read.
    pages = []
    for n, opening in enumerate(_OPENINGS):
        lines = [(72, 45, 10, "The Orchard Handbook"), (530, 45, 10, str(n + 1))]
        body = [f"{opening} {_ORCHARD[0]}", *_ORCHARD[1:]]
        if n in (0, 2):
            lines += [(72, 90, 10, "Tree"), (250, 90, 10, "Season"), (420, 90, 10, "Yield")]
            lines += [(72, 102 + 12 * k, 10, t) for k, t in enumerate(body)]
        else:
            lines += [(72, 90 + 12 * k, 10, t) for k, t in enumerate(body)]
        pages.append(lines)
    text = _text(_typed_pdf(tmp_path / "orchard.pdf", pages))
    for opening in _OPENINGS:
        assert f"{opening} the orchard was planted" in text, (opening, text)
    assert "Orchard Handbook" not in text, text


def test_a_blocks_continued_labels_where_the_page_breaks_it_are_not_read(tmp_path):
    # Sphinx's LaTeX labels a code block broken by the page: "(continues on next page)" under its first
    # part, "(continued from previous page)" over the rest; a long table's "Continued on next page" too.
    first = [(72, 80 + 14 * k, 10, t) for k, t in enumerate(_ORCHARD)]
    first += [(90, 140, 9, "plant --row twelve --kind russet"), (90, 152, 9, "prune --season winter"),
              (420, 166, 8, "(continues on next page)")]
    second = [(400, 80, 8, "(continued from previous page)"), (90, 94, 9, "harvest --basket large"),
              (72, 120, 10, "Continued on next page"), (72, 140, 10, _OPENINGS[0] + " the pickers came back.")]
    text = _text(_typed_pdf(tmp_path / "blocks.pdf", [first, second]))
    assert "prune --season winter" in text and "harvest --basket large" in text, text
    assert "continue" not in text.casefold(), text


def _form_page(path, inner, outer, scale: float, at: tuple[float, float]):
    """Write `outer`'s page with `inner`'s page drawn on it as a form XObject at `scale`, its lower left
    corner at `at` (an included figure, as pdfTeX places a plot; or a whole page drawn as one form)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    src, doc = pdfium.PdfDocument(str(inner)), pdfium.PdfDocument(str(outer))
    xobject = raw.FPDF_NewXObjectFromPage(doc.raw, src.raw, 0)
    form = raw.FPDF_NewFormObjectFromXObject(xobject)
    raw.FPDFPageObj_Transform(form, ctypes.c_double(scale), 0, 0, ctypes.c_double(scale), *at)
    page = doc[0]
    raw.FPDFPage_InsertObject(page.raw, form)
    raw.FPDFPage_GenerateContent(page.raw)
    raw.FPDF_CloseXObject(xobject)
    doc.save(str(path))
    return path


def test_the_labels_inside_an_included_figure_are_not_read_its_caption_is(tmp_path):
    # A plot or drawing included as a form XObject: its labels are the picture's, which the HTML edition
    # shows as an image; the caption, drawn on the page, is read.
    figure = _typed_pdf(tmp_path / "figure.pdf", [[(100, 200, 30, "north field"), (350, 200, 30, "south field"),
                                                     (200, 500, 30, "yield per acre")]])
    lines = [(72, 80 + 14 * k, 10, t) for k, t in enumerate(_ORCHARD)]
    lines += [(72, 700, 10, "Figure 1: The two fields of the orchard."),
              (72, 730, 10, _OPENINGS[1] + " the pickers went to the north field first.")]
    page = _typed_pdf(tmp_path / "text.pdf", [lines])
    text = _text(_form_page(tmp_path / "figure-page.pdf", figure, page, 0.5, (72, 792 - 660)))
    assert "Figure 1: The two fields of the orchard." in text, text
    assert "went to the north field first" in text and "the orchard was planted" in text, text
    assert "yield per acre" not in text and "south field" not in text, text


def test_a_page_drawn_whole_as_one_form_is_read(tmp_path):
    # Some producers draw a whole page (an included or imposed page) as one form: that is no figure.
    inner = _typed_pdf(tmp_path / "inner.pdf", [[(72, 80 + 14 * k, 10, t) for k, t in enumerate(_ORCHARD)]])
    blank = _typed_pdf(tmp_path / "blank.pdf", [[(300, 770, 10, "7")]])
    text = _text(_form_page(tmp_path / "whole-page.pdf", inner, blank, 1.0, (0, 0)))
    assert "the orchard was planted" in text and "when they were young." in text, text


def test_brackets_holding_words_after_an_address_are_read(tmp_path):
    # A link's target shown after it in brackets is not read ("the guide (https://...)"), but brackets that
    # go on in words after the address are the book's text, said with them.
    lines = ["The growers keep a register of the trees (https://orchard.example.org/register) and a",
             "ledger (https://orchard.example.org/: it is often kept in the barn but may need to be",
             "fetched from the house) where the pickers write down each basket they bring in at night."]
    text = _one_page_text(tmp_path / "ledger.pdf", lines)
    assert "register of the trees and a ledger" in text, text
    assert "it is often kept in the barn but may need to be fetched from the house" in text, text


def test_a_footnotes_rest_carried_to_the_next_pages_foot_is_not_read(tmp_path):
    # TeX carries a long note over to the next page's foot, without a marker there: that rest is the
    # note's, left out with it; a small line at the foot of a page after a note that ended is text.
    first = [(72, 80 + 14 * k, 10, t) for k, t in enumerate(_ORCHARD)]
    first += [(72, 700, 8, "1 The ledger is kept in the barn, as the growers agreed in the first year, and its")]
    second = [(72, 80 + 14 * k, 10, t) for k, t in enumerate(_HERON)]
    second += [(72, 700, 8, "pages are numbered by hand in red ink by the eldest of the pickers.")]
    text = _text(_typed_pdf(tmp_path / "notes.pdf", [first, second]))
    assert "the winter sky" in text and "The heron stood on the weir" in text and "far side of the water." in text
    assert "ledger" not in text and "red ink" not in text, text


def test_a_word_after_a_line_end_hyphen_that_opens_in_capitals_is_a_compounds_part(tmp_path):
    # No word is broken before a capital letter: "Half-" + "Installed" is the compound, though PDFium marks
    # that hyphen as one the typesetter added; a word set in capitals ("INTRO-" + "DUCTION") is joined.
    lines = ["The basket is marked as Half-",
             "Installed when only some of the apples are in it, and the pickers leave it by the gate",
             "until the morning. The chapter called INTRO-",
             "DUCTION in the growers' book says how each basket is to be counted and marked."]
    text = _one_page_text(tmp_path / "caps.pdf", lines)
    assert "marked as Half-Installed when" in text, text
    assert "called INTRODUCTION in the" in text, text


def _unmapped_ligatures_pdf(path, lines: list[str]):
    """Write a page in a Type 1 font whose f-ligatures have no Unicode name (as dvips' fonts reach a PDF through
    Ghostscript): TeX's T1 codes, 27 ff and 28 fi, named /g27 and /g28; lines in PDF string syntax."""
    ops = "\n".join(f"BT /F1 11 Tf 72 {700 - 14 * k} Td ({text}) Tj ET" for k, text in enumerate(lines)).encode()
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
            b"/Contents 4 0 R >>",
            b"<< /Length %d >>\nstream\n" % len(ops) + ops + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman "
            b"/Encoding << /Type /Encoding /Differences [27 /g27 /g28] >> >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_texs_ligatures_without_a_unicode_name_are_read_as_their_letters(tmp_path):
    # PDFium gives such a glyph its code, a control character the text's cleaning drops: "the gure shows the
    # le". TeX's encodings put the f-ligatures at fixed codes (T1: 27-31), so they are read as their letters.
    text = _text(_unmapped_ligatures_pdf(tmp_path / "ferry.pdf", [
        "The \\034gure on the wall shows the \\034le of boats that passed each day, and a co\\033ee cart",
        "stood by the door so that every visitor could wait there for the o\\033ice to open again."]))
    assert "The figure on the wall shows the file of boats that passed each day, and a coffee cart" in text, text
    assert "for the office to open again." in text, text


def test_a_missing_pictures_file_name_printed_in_its_place_is_not_read(tmp_path):
    # A producer that cannot find a picture prints its path where it stood (Apache FOP: "[./images/plate.jpg]").
    text = _one_page_text(tmp_path / "plates.pdf", [
        "The first plate shows the mill as it stood before the flood, its wheel turning in the race.",
        "[./images/plate-3.jpg]",
        "The second shows the same mill ten years on, rebuilt in stone by the miller's sons.",
        "figures/wheel.png"])
    assert "plate" not in text.replace("The first plate", "") and "jpg" not in text and "png" not in text, text
    assert "turning in the race. The second shows the same mill" in text, text


def test_empty_bytes_marks_a_converter_printed_around_characters_are_not_read(tmp_path):
    # dblatex under Python 3 prints each character it escapes in a listing between "b''" marks (a tree
    # drawn with dashes: "b''—b''b''—b'' rakes"); the marks are no text. A program's own empty bytes,
    # among plain characters, stay.
    lines = ["The shed by the orchard holds the tools of the season, each on its own hook:",
             "b''\u2014b''b''\u2014b'' rakes",
             "b''\u2014b''b''\u2014b'' spades",
             "and the keeper's note says: buffer = b'' until the first delivery comes in."]
    text = _one_page_text(tmp_path / "shed.pdf", lines)
    assert "rakes" in text and "spades" in text, text
    assert "b''\u2014" not in text and "\u2014b''" not in text, text
    assert "buffer = b'' until" in text, text
