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
