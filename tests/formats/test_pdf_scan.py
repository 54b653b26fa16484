"""A scan's OCR layer (invisible text over page pictures, as Tesseract writes it): its chapters from its
geometry and its numbers' sequence. The files are written here, every line invented."""
from __future__ import annotations

from app.book import load_book
from app.book.formats.pdfocr import is_chapter_number
from tests.formats.test_pdf import _HERON, _MEADOW, _ocr_pdf

_STORY = _MEADOW + _HERON


def _page(numeral, size=14, top=False, folio=1):
    """One page of a chapter: its number (at `size`) standing apart at the page's top or mid-page, then
    prose at 18-point steps, the page number at the foot in small type."""
    lines = [] if top else [(72, 80 + 18 * k, 13, t) for k, t in enumerate(_STORY[:4])]
    y = 80 if top else 200
    lines.append((72, y, size, numeral))
    lines += [(72, y + 40 + 18 * k, 13, t) for k, t in enumerate(_STORY)]
    lines.append((300, 740, 10, str(folio)))
    return lines


def test_a_scans_chapter_numbers_are_read_by_their_place_and_their_sequence(tmp_path):
    # What the OCR read: III as "IIT", V as "Vv", VIII as a second "VII" (a letter lost), VI at the
    # body's size, VII at a page's top where a page number could stand (the page numbers stand at the
    # foot), and a fragment of a sentence at a heading's size standing apart, in lower case.
    read = [("I", 14, False), ("II", 14, False), ("IIT", 14, False), ("IV", 14, True), ("Vv", 14, False),
            ("VI", 13, False), ("VII", 14, True), ("VII", 14, False), ("IX", 14, False)]
    pages = [_page(n, size, top, folio=k + 1) for k, (n, size, top) in enumerate(read)]
    pages[1].append((200, 400, 14, "over the hill and"))
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    titles = [c.title for c in book.chapters]
    assert titles[-9:] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"], titles
    text = " ".join(p for c in book.chapters for p in c.paragraphs)
    assert "over the hill and" in text  # said as text, in its chapter
    assert not any(p.strip() in {"4", "7"} for c in book.chapters for p in c.paragraphs)  # page numbers out


def test_a_body_line_beside_a_heading_sized_one_keeps_that_line_in_its_paragraph(tmp_path):
    # Measured on the page, not on the OCR's order of lines: a line misread at a heading's size with a
    # body line 12 points under it is inside a paragraph, wherever the OCR listed that line.
    lines = [(72, 80 + 18 * k, 13, t) for k, t in enumerate(_STORY)]
    lines.insert(0, (72, 80 + 18 * 8 - 12, 14, "and the boat lay still"))  # listed first, drawn mid-page
    pages = [_page("I"), lines, _page("II"), _page("III")]
    titles = [c.title for c in load_book(_ocr_pdf(tmp_path / "scan.pdf", pages)).chapters]
    assert titles[-3:] == ["I", "II", "III"] and "and the boat lay still" not in titles, titles


def test_a_chapter_word_misread_is_still_a_chapter_number():
    # "Chapter" as an OCR engine misreads it, then a number; a word that is not "chapter" is not one.
    assert is_chapter_number("CHAPTEE XI") and is_chapter_number("Cliapter 7") and is_chapter_number("XIV")
    assert not is_chapter_number("Capture XI") and not is_chapter_number("over the hill")
    assert not is_chapter_number("VV") and is_chapter_number("VV", loose=True)


def test_a_scans_chapter_words_and_titles_are_read_with_their_numbers_repaired(tmp_path):
    # "CHAPTER II." over the chapter's title, both set large; the OCR misread the word once ("CHAPTEE")
    # and a number twice ("IIT", a lost "I"): the word is spelt, the numbers follow the sequence, the
    # title stays as read.
    heads = [("CHAPTER I.", "THE MILL AT NIGHT"), ("CHAPTEE II.", "THE FLOOD"), ("CHAPTER IIT.", "THE FERRY"),
             ("CHAPTER IV.", "THE HERON"), ("CHAPTER IV.", "SPRING AGAIN"), ("CHAPTER VI.", "THE END")]
    pages = []
    for number, title in heads:
        page = _page(number)
        page.insert(5, (72, 216, 14, title))
        pages.append(page)
    titles = [c.title for c in load_book(_ocr_pdf(tmp_path / "scan.pdf", pages)).chapters]
    assert titles[-6:] == ["CHAPTER I. THE MILL AT NIGHT", "CHAPTER II. THE FLOOD", "CHAPTER III. THE FERRY",
                           "CHAPTER IV. THE HERON", "CHAPTER V. SPRING AGAIN", "CHAPTER VI. THE END"], titles


def test_a_scans_chapter_numbers_read_at_the_bodys_size_are_still_its_chapters(tmp_path):
    # No chapter's number was read larger than the body (only the title page's title): each number standing
    # apart mid-page is its chapter's heading; a number at a page's foot is the page's.
    title = [(150, 200, 24, "The Mill on the Weir"), (200, 240, 13, "Ann Writer")]
    pages = [title] + [_page(n, size=13, folio=k + 2) for k, n in enumerate(("I", "II", "III", "IV"))]
    titles = [c.title for c in load_book(_ocr_pdf(tmp_path / "scan.pdf", pages)).chapters]
    assert titles[-4:] == ["I", "II", "III", "IV"], titles


def test_an_abbreviated_chapter_word_is_a_chapter_number():
    # Older books set "CHAP. IV."; the OCR may read its H as two I's. A sentence that names a chapter is none.
    assert is_chapter_number("CHAP. IV.") and is_chapter_number("Chap. 12") and is_chapter_number("CIIAP. XI.")
    assert not is_chapter_number("In chap. 8. are the rules of the game") and not is_chapter_number("Mr. I")


def _opening_page(heading, size=14, folio=1):
    """A page a chapter opens: its heading at the top, standing apart, then prose; the number at the foot."""
    lines = [(72, 134, size, heading)]
    lines += [(72, 180 + 18 * k, 13, t) for k, t in enumerate(_STORY)]
    lines.append((300, 740, 10, str(folio)))
    return lines


def test_chapters_opening_their_pages_with_the_same_word_are_not_running_heads(tmp_path):
    # Every chapter opens a page with "CHAP. N." set large: in shape ("chap. #.") the line repeats at the
    # top of many pages, as a running head does, but never as printed: each is its chapter's heading.
    heads = ["CHAP. I.", "CHAP. II.", "CHAP. III.", "CHAP. IV.", "CHAP. V.", "CHAP. VI."]
    pages = []
    for k, head in enumerate(heads):
        pages += [_opening_page(head, folio=2 * k + 1), [(72, 80 + 18 * j, 13, t) for j, t in enumerate(_STORY)]]
    titles = [c.title for c in load_book(_ocr_pdf(tmp_path / "scan.pdf", pages)).chapters]
    assert titles[-6:] == heads, titles


def test_a_running_head_set_large_is_still_a_running_head(tmp_path):
    # The same line as printed atop every page, larger than the body: a running head, not a chapter.
    pages = [[(72, 40, 16, "THE MILL ON THE WEIR")] + [(72, 80 + 18 * j, 13, t) for j, t in enumerate(_STORY[k:] + _STORY[:k])]
             for k in range(7)]
    text = " ".join(p for c in load_book(_ocr_pdf(tmp_path / "scan.pdf", pages)).chapters for p in c.paragraphs)
    assert "THE MILL ON THE WEIR" not in text and "the old ferryman kept his boat" in text, text


def test_a_title_pages_lines_read_at_many_sizes_do_not_push_the_chapters_down(tmp_path):
    # The OCR read the title page's four lines at four sizes, each used once, all above the chapters'
    # "CHAP. N." (and a "PREFACE." among them, a heading with a full stop, not a sentence): they are one
    # level, so the chapters stay the book's division, the preface with them.
    title = [(150, 150, 19, "THE MILL ON THE WEIR;"), (150, 200, 18, "OR,"), (150, 240, 17, "A TALE OF THE RIVER."),
             (150, 300, 16, "ANN WRITER.")]
    heads = ["PREFACE.", "CHAP. I.", "CHAP. II.", "CHAP. III.", "CHAP. IV."]
    pages = [title] + [_opening_page(h, folio=k + 2) for k, h in enumerate(heads)]
    titles = [c.title for c in load_book(_ocr_pdf(tmp_path / "scan.pdf", pages)).chapters]
    assert titles[-5:] == heads, titles


def test_a_line_read_large_that_reads_as_a_sentence_is_text_where_most_headings_are_numbers(tmp_path):
    # Six of nine headings are chapter numbers: the two lines the OCR read large that read as sentences (a
    # quotation, a clause ending in a comma) are text; "PREFACE." and a title in capitals ending in a full
    # stop are headings still.
    heads = ["PREFACE.", "CHAPTER I.", "CHAPTER II.", "THE MILL ON THE WEIR AT NIGHT.", "CHAPTER III.",
             "CHAPTER IV.", "CHAPTER V.", "CHAPTER VI."]
    pages = [_opening_page(h, folio=k + 1) for k, h in enumerate(heads)]
    pages[2].insert(3, (72, 420, 14, "\u201cAny more bread, sir?\u201d"))
    pages[5].insert(3, (72, 420, 14, "and so the long day ended,"))
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    titles = [c.title for c in book.chapters]
    assert "PREFACE." in titles and "CHAPTER VI." in titles and not any("Any more" in t or "so the long" in t
                                                                         for t in titles), titles
    headings = [b for b in titles if "MILL ON THE WEIR" in b]
    assert headings, titles
    text = " ".join(p for c in book.chapters for p in c.paragraphs)
    assert "Any more bread, sir?" in text and "and so the long day ended," in text


_GLYPH_NAMES = {" ": "space", ".": "period", ",": "comma", "'": "quoteright", "-": "hyphen"}


def _tesseract_layer_pdf(path, pages):
    """Write a PDF whose text is drawn as Tesseract draws its layer: invisible, in a font whose glyph boxes
    reach two ems above and below the baseline (taller than the line spacing, as its GlyphLessFont's are),
    every word shown with its trailing space, each block of lines one text object whose lines are moved to
    by Td, and no line break written. pages: [[block of (x, y from the top, size, text)]]."""
    chars = sorted({c for blocks in pages for block in blocks for _, _, _, t in block for c in t + " "})
    first, last = ord(chars[0]), ord(chars[-1])
    procs = " ".join(f"/{_GLYPH_NAMES.get(c, c)} 4 0 R" for c in chars)
    diffs = " ".join(f"{ord(c)} /{_GLYPH_NAMES.get(c, c)}" for c in chars)
    proc = b"500 0 0 -2000 500 2000 d1"
    objs: list = ["<< /Type /Catalog /Pages 2 0 R >>", None,
                  f"<< /Type /Font /Subtype /Type3 /FontBBox [0 -2000 500 2000] /FontMatrix [0.001 0 0 0.001 0 0] "
                  f"/CharProcs << {procs} >> /Encoding << /Type /Encoding /Differences [{diffs}] >> "
                  f"/FirstChar {first} /LastChar {last} /Widths [{' '.join(['500'] * (last - first + 1))}] >>",
                  b"<< /Length %d >>\nstream\n%s\nendstream" % (len(proc), proc)]
    kids = []
    for blocks in pages:
        ops = []
        for block in blocks:
            ops += ["BT", "3 Tr"]
            at = None
            for x, y, size, text in block:
                ops.append(f"1 0 0 1 {x} {792 - y} Tm /F1 {size} Tf" if at is None else
                           f"{x - at[0]:.2f} {at[1] - y:.2f} Td /F1 {size} Tf")
                at = [x, y]
                for word in text.split():
                    ops.append(f"({word} ) Tj {0.5 * size * (len(word) + 1):.2f} 0 Td")
                    at[0] += 0.5 * size * (len(word) + 1)
            ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objs.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                    f"/Contents {len(objs)} 0 R >>")
        kids.append(f"{len(objs)} 0 R")
    objs[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, obj in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + (obj if isinstance(obj, bytes) else obj.encode()) + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def test_an_ocr_layers_lines_are_lines_where_no_line_break_is_written(tmp_path):
    # Tesseract writes no line break between a block's lines and ends every word with a space: each printed
    # line is still a line of its own, so the piece of a paragraph's first line that the engine set apart
    # as a block of its own ("ran down to the river") joins that line, not the paragraph's middle.
    head, tail = "The gate stood open all that winter, and the path beyond it", "ran down to the river"
    pages = []
    for numeral in ("I", "II", "III"):
        body = [(72, 140, 13, head)] + [(72, 140 + 18 * k, 13, t) for k, t in enumerate(_STORY[1:], start=1)]
        piece = [(72 + 6.5 * (len(head.split()) + len(head)), 140, 13, tail)]
        pages.append([[(72, 90, 18, numeral)], body, piece])
    book = load_book(_tesseract_layer_pdf(tmp_path / "scan.pdf", pages))
    text = " ".join(book.chapters[-1].paragraphs)
    assert f"{head} {tail} where the old ferryman" in text, text


def test_a_scans_contents_heading_read_at_the_bodys_size_still_heads_a_listing(tmp_path):
    # "CONTENTS." standing apart, read at the body's size as the chapter words are: its listing is matter,
    # not the end of the preface before it.
    preface = [(72, 80, 14, "PREFACE.")] + [(72, 120 + 18 * k, 13, t) for k, t in enumerate(_STORY)]
    preface += [(72, 300, 13, "CONTENTS."), (72, 340, 13, "CHAPTER"), (72, 358, 13, "I. THE MILL AT NIGHT"),
                (72, 376, 13, "II. THE FLOOD"), (72, 394, 13, "III. THE FERRY")]
    numbers = ("I", "II", "III", "IV", "V", "VI")  # a book's pages: a short document's matter is read
    pages = [preface] + [_page(f"CHAPTER {n}.", size=13, folio=k + 2) for k, n in enumerate(numbers)]
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    assert [c.title for c in book.chapters] == ["PREFACE."] + [f"CHAPTER {n}." for n in numbers]
    spoken = " ".join(p for c in book.chapters for p in c.paragraphs)
    assert "THE FLOOD" not in spoken and "The heron stood on the weir" in spoken


def test_a_paragraph_the_ocr_read_large_as_a_whole_is_text(tmp_path):
    # Every line of a page's first paragraph read a point larger than the body, and no body line near
    # enough to tell: full lines a line's distance apart are prose, not a heading that opens a chapter.
    large = [(72, 80 + 18 * k, 14, t) for k, t in enumerate(_HERON)] + [
        (72, 150 + 18 * k, 13, t) for k, t in enumerate(_MEADOW)]
    pages = [_page("I", folio=1), large, _page("II", folio=3), _page("III", folio=4)]
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    assert [c.title for c in book.chapters][-3:] == ["I", "II", "III"], [c.title for c in book.chapters]
    assert "The heron stood on the weir as it always did" in " ".join(book.chapters[-3].paragraphs)


def test_a_chapter_the_contents_names_is_a_heading_though_read_at_the_bodys_size(tmp_path):
    # The first chapter is headed by a name, not a number, read at the body's size mid-page: the contents
    # listing names it as printed, so it heads its chapter instead of running on in the preface.
    numbers = ("II", "III", "IV", "V")
    contents = [(72, 200, 13, "CONTENTS"), (72, 218, 13, "PREFACE."), (72, 236, 13, "The Mill at Night.")]
    contents += [(72, 254 + 18 * k, 13, f"CHAPTER {n}.") for k, n in enumerate(numbers)]
    preface = [(72, 80, 14, "PREFACE.")] + [(72, 120 + 18 * k, 13, t) for k, t in enumerate(_STORY)]
    first = _page("The Mill at Night.", size=13, folio=3)
    pages = [contents, preface, first] + [_page(f"CHAPTER {n}.", folio=k + 4) for k, n in enumerate(numbers)]
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    assert [c.title for c in book.chapters] == ["PREFACE.", "The Mill at Night."] + [f"CHAPTER {n}." for n in numbers]


def test_a_lines_middle_words_the_ocr_gave_apart_go_back_into_its_gap(tmp_path):
    # The engine gave a line's middle words as a block of its own, after the page's other lines: they fill
    # the gap between the line's two ends on the same baseline, not a line of their own after them.
    left, middle, right = "where the old ferryman", "kept his boat tied to a post", "of grey oak. Nobody crossed"
    x_mid = 72 + 7.8 * (len(left) + 1)
    x_right = x_mid + 7.8 * (len(middle) + 1)
    pages = []
    for numeral in ("I", "II", "III"):
        lines = [(72, 80, 18, numeral), (72, 120, 13, _STORY[0]), (72, 138, 13, left), (x_right, 138, 13, right)]
        lines += [(72, 156 + 18 * k, 13, t) for k, t in enumerate(_STORY[2:])]
        pages.append(lines + [(x_mid, 138, 13, middle)])
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    text = " ".join(book.chapters[-1].paragraphs)
    assert f"{left} {middle} {right} after dark" in text, text


def test_a_chapter_number_the_ocr_lost_is_put_back_in_its_openings_blank(tmp_path):
    # The engine read no text in chapter III's number: its chapter opens where the numbers around it
    # (II, then IV) leave the one blank deep enough for a chapter's opening; a blank before a page's
    # number at its foot is none.
    lost = [line for line in _page("III", folio=3) if line[3] != "III"]
    pages = [_page("I", folio=1), _page("II", folio=2), lost, _page("IV", folio=4), _page("V", folio=5),
             _page("VI", folio=6)]
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    assert [c.title for c in book.chapters][-6:] == ["I", "II", "III", "IV", "V", "VI"], [c.title for c in book.chapters]
    assert book.chapters[-4].paragraphs[1].startswith("The gate stood open"), book.chapters[-4].paragraphs[:2]


def test_a_scans_chapters_numbered_with_another_word_than_chapter_are_its_chapters(tmp_path):
    # A book numbers its chapters "Stave I" (or "Canto", "Letter"); the OCR read each heading at the body's
    # size, standing apart at its page's top. Each is a chapter, named as printed, never "Chapter II"; a
    # sentence opening with such a word is none.
    title = [(150, 200, 24, "The Mill on the Weir"), (200, 240, 13, "Ann Writer")]
    pages = [title] + [_opening_page(f"Stave {n}", size=13, folio=k + 2) for k, n in enumerate(("I", "II", "III"))]
    titles = [c.title for c in load_book(_ocr_pdf(tmp_path / "scan.pdf", pages)).chapters]
    assert titles[-3:] == ["Stave I", "Stave II", "Stave III"], titles
    assert is_chapter_number("Canto IV") and is_chapter_number("LETTER XII.")
    assert not is_chapter_number("Story time is over at nine")


def test_the_parts_a_scanned_book_names_head_their_text_and_leave_the_numbers_sequence_alone(tmp_path):
    # "Preface" and "Imprint" stand apart at their pages' tops, read at the body's size like the staves: each
    # heads its own text. They are no chapter numbers, yet they do not outvote the numbers: a quotation the
    # OCR read large is still text where the other headings are numbered.
    heads = ["Imprint", "Preface", "Stave I", "Stave II", "Stave III", "Stave IV", "Colophon"]
    pages = [[(150, 200, 24, "The Mill on the Weir"), (200, 240, 13, "Ann Writer")]]
    pages += [_opening_page(h, size=13, folio=k + 2) for k, h in enumerate(heads)]
    pages[4].insert(3, (72, 420, 14, "\u201cAny more bread, sir?\u201d"))
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    titles = [c.title for c in book.chapters]
    assert titles[-5:] == ["Preface", "Stave I", "Stave II", "Stave III", "Stave IV"], titles
    assert "Any more bread, sir?" in " ".join(p for c in book.chapters for p in c.paragraphs)
