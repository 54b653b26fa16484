"""PDF read as a book: scored against the EPUB of the same book, checked with poppler and qpdf."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import jiwer
import pytest

from app.book import load_book
from app.book.model import ReadOptions
from app.core.errors import CorruptBook, ProtectedBook, ScannedBook
from tests.books.corpus import title_key, words
from tests.formats.pdfobjects import write_pdf
from tests.formats.twins import chapter_errors, debian_file, sample, spoken_words

DEVREF = "usr/share/developers-reference/developers-reference"


@pytest.fixture(scope="module")
def devref():
    pdf = debian_file("developers-reference", f"{DEVREF}.pdf")
    epub = debian_file("developers-reference", f"{DEVREF}.epub")
    return load_book(pdf), load_book(epub)


def test_the_pdf_reads_the_chapters_of_its_epub(devref):
    pdf, epub = devref
    assert [title_key(c.title) for c in pdf.chapters] == [title_key(c.title) for c in epub.chapters]
    assert pdf.title == epub.title == "Debian Developer's Reference"


def test_each_chapter_of_the_pdf_is_within_five_percent_of_the_epub(devref):
    pdf, epub = devref
    errors = chapter_errors(pdf, epub)
    assert all(e is not None and e <= 0.05 for _, e in errors), errors


def test_no_running_head_page_number_or_split_word_is_spoken(devref):
    pdf, epub = devref
    text = "\n".join(p for c in pdf.chapters for p in c.paragraphs)
    # The running head of every page (independently: pdftotext's first line of page 20).
    head = _pdftotext(debian_file("developers-reference", f"{DEVREF}.pdf"), 20).strip().splitlines()[0]
    assert head and head.strip() not in text
    # A page number alone, or a word cut at a line's end ("pack- ages"), is in no paragraph.
    assert not any(re.fullmatch(r"\d{1,3}", p) for c in pdf.chapters for p in c.paragraphs)
    epub_words = set(words(" ".join(p for c in epub.chapters for p in c.paragraphs)))
    halves = [m for m in re.findall(r"\b([a-z]{2,})- ([a-z]{2,})\b", text)
              if "".join(m) in epub_words and m[0] not in epub_words]
    assert halves == []


def _pdftotext(pdf, page: int) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils' pdftotext is the independent reader (scripts/system-deps.sh)")
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(pdf), "-"],
                          capture_output=True, text=True, check=True, timeout=60).stdout


def test_two_columns_are_read_column_by_column():
    pdf = sample("multicolumn.pdf")
    width = 612
    # The reference: poppler's text of the left half of the page, then of the right half.
    ref = []
    for x, w in ((0, width // 2), (width // 2, width - width // 2)):
        if not shutil.which("pdftotext"):
            pytest.skip("poppler-utils' pdftotext is the independent reader")
        ref.append(subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-x", str(x), "-y", "90", "-W", str(w),
                                   "-H", "600", str(pdf), "-"], capture_output=True, text=True, check=True).stdout)
    expected = " ".join(words(" ".join(ref)))
    book = load_book(pdf)
    got = " ".join(words(" ".join(book.chapters[0].paragraphs)))
    # Our reading holds the whole first page in that order (and more pages after it).
    out = jiwer.process_words(expected, got[: len(expected) + 200])
    assert out.deletions / max(1, len(expected.split())) < 0.03, out.deletions
    assert "sample document with two columns" in " ".join(book.chapters[0].paragraphs)
    # The table is read row by row, cells set apart: each row as poppler lays it out (-layout), cells
    # being what two or more spaces part there.
    layout = subprocess.run(["pdftotext", "-layout", "-f", "3", "-l", "3", str(pdf), "-"], capture_output=True,
                            text=True, check=True).stdout
    rows = ["; ".join(re.split(r"\s{2,}", ln.strip())) for ln in layout.splitlines()
            if re.match(r"\s*(?:Austria|Belgium|Denmark)\s{2,}", ln)]
    assert len(rows) == 3 and all(row in book.chapters[0].paragraphs for row in rows), rows
    # No page number is read, alone or at a paragraph's end (they stand high above a tall bottom margin).
    assert not any(re.search(r"(?:^|\s)[123]$", p) for p in book.chapters[0].paragraphs)


def test_chapters_come_from_the_outline(tmp_path):
    pdf = sample("GeoTopo-komprimiert.pdf")
    if not shutil.which("qpdf"):
        pytest.skip("qpdf reads the outline independently (scripts/system-deps.sh)")
    data = json.loads(subprocess.run(["qpdf", "--json", "--json-key=outlines", str(pdf)], capture_output=True,
                                     text=True, check=True, timeout=60).stdout)
    top = [o["title"] for o in data["outlines"]]
    book = load_book(pdf)
    titles = [c.title for c in book.chapters]
    listed = [t for t in titles if t in top]
    assert listed == [t for t in top if t in titles]  # in the outline's order
    assert len(listed) >= len(top) - 3, (titles, top)  # the outline's entries, less matter (contents)
    # Before the first entry only the front pages, read as one chapter since they are long (a preface).
    assert all(t in top for t in titles[1:])
    assert book.title == "Geometrie und Topologie" and book.author == "Martin Thoma"
    # The index (page references every few words) is matter: out, unless asked for.
    assert "Stichwortverzeichnis" in top and "Stichwortverzeichnis" not in titles
    assert "Stichwortverzeichnis" in [c.title for c in load_book(pdf, options=ReadOptions(include_matter=True)).chapters]
    assert book.language == "de"  # no /Lang in the catalog: its function words say German
    # The cover is page one drawn as a PNG (read back with ffprobe).
    cover = tmp_path / "cover.png"
    cover.write_bytes(book.cover.data)
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,height",
                                       "-of", "json", str(cover)], capture_output=True, text=True, check=True).stdout)
    assert probe["streams"][0] == {"codec_name": "png", "height": 600} and book.cover.media_type == "image/png"


def test_every_outline_entry_is_a_chapter_even_several_on_a_page_with_one_title():
    pdf = sample("pdflatex-outline.pdf")
    if not shutil.which("qpdf"):
        pytest.skip("qpdf reads the outline independently (scripts/system-deps.sh)")
    data = json.loads(subprocess.run(["qpdf", "--json", "--json-key=outlines", str(pdf)], capture_output=True,
                                     text=True, check=True, timeout=60).stdout)
    book = load_book(pdf)
    assert [c.title for c in book.chapters] == [o["title"] for o in data["outlines"]]  # Foo, Bar, Baz three times
    reference = " ".join(words(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                              check=True).stdout))
    got = " ".join(words(" ".join(p for c in book.chapters for p in c.paragraphs)))
    # All the body text is read (poppler's text has the contents page and page numbers besides).
    assert jiwer.process_words(reference, got).deletions < 0.08 * len(reference.split())


def test_a_pdf_without_an_outline_is_divided_at_its_headings():
    pdf = debian_file("debian-policy", "usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz")
    text = debian_file("debian-policy", "usr/share/doc/debian-policy/fhs/fhs-3.0.txt.gz").read_text()
    chapters = re.findall(r"^(Chapter \d+\. .+)$", text, re.M)  # the text twin's chapter lines
    book = load_book(pdf)
    assert len(chapters) == 7
    for title in chapters:
        assert any(c.title.startswith(title) for c in book.chapters), (title, [c.title for c in book.chapters])


def test_an_encrypted_pdf_is_one_line(run_cli):
    pdf = sample("libreoffice-writer-password.pdf")
    with pytest.raises(ProtectedBook, match="password-protected"):
        load_book(pdf)
    result = run_cli(pdf, "--list-chapters")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert "password-protected" in result.stderr and "AUDIOBOOK_DEBUG" not in result.stderr


def test_a_scan_is_one_line_naming_ocr(tmp_path, run_cli):
    if not shutil.which("pdftoppm"):
        pytest.skip("poppler-utils' pdftoppm draws the page the scan is made of")
    import pypdfium2 as pdfium

    # A page of a real PDF drawn as a picture (poppler), put alone on a page: a PDF with no text layer.
    subprocess.run(["pdftoppm", "-jpeg", "-r", "60", "-f", "1", "-l", "1", "-singlefile",
                    str(sample("002-trivial-libre-office-writer.pdf")), str(tmp_path / "page")], check=True)
    doc = pdfium.PdfDocument.new()
    page = doc.new_page(612, 792)
    image = pdfium.PdfImage.new(doc)
    image.load_jpeg(str(tmp_path / "page.jpg"))
    image.set_matrix(pdfium.PdfMatrix().scale(612, 792))
    page.insert_obj(image)
    page.gen_content()
    scan = tmp_path / "scan.pdf"
    doc.save(str(scan))
    with pytest.raises(ScannedBook, match="scan"):
        load_book(scan)
    result = run_cli(scan, "--list-chapters")
    assert result.returncode == 2 and "OCR" in result.stderr and result.stderr.strip().count("\n") == 0


def test_a_file_is_read_by_what_it_is_not_by_its_name(tmp_path):
    pdf = sample("002-trivial-libre-office-writer.pdf")
    named_epub = tmp_path / "book.epub"
    named_epub.write_bytes(pdf.read_bytes())
    assert spoken_words(load_book(named_epub).chapters[0]) == spoken_words(load_book(pdf).chapters[0])
    fake = tmp_path / "book.pdf"
    fake.write_bytes(b"<html><body><p>Not a PDF at all.</p></body></html>")
    with pytest.raises(CorruptBook, match="not a readable PDF"):
        load_book(fake)


def test_code_blocks_follow_the_code_option(devref):
    mention = devref[0]
    skip = load_book(debian_file("developers-reference", f"{DEVREF}.pdf"), options=ReadOptions(code="skip"))
    assert "Code example." in mention.chapters[4].paragraphs
    assert "Code example." not in skip.chapters[4].paragraphs
    assert skip.chapters[4].words < mention.chapters[4].words


MAINT_GUIDE = "usr/share/doc/maint-guide/maint-guide.en"


@pytest.mark.parametrize("code", ["read", "mention"])
def test_maint_guide_pdf_reads_its_text_twin(code):
    """The PDF against its text, code read or mentioned: the same chapters, each within 5 %.

    Its chapter 4 quotes control files with their line numbers ("  1 Source: gentoo"); the text
    reader once dropped them as a contents listing (12.8 % then). Mentioned, both readings must
    take the same blocks for code: makefile rules and scripts in the text, paths in a sentence and
    files in a list in the PDF's monospace (15.8 % once).
    """
    options = ReadOptions(code=code)
    pdf = load_book(debian_file("maint-guide", f"{MAINT_GUIDE}.pdf"), options=options)
    text_path = debian_file("maint-guide", f"{MAINT_GUIDE}.txt.gz")
    text = load_book(text_path, options=options)
    assert [title_key(c.title) for c in pdf.chapters] == [title_key(c.title) for c in text.chapters]
    errors = chapter_errors(pdf, text)
    assert all(e is not None and e <= 0.05 for _, e in errors), errors
    # The numbered listing is code, not left out: read as the file has it, or mentioned.
    assert re.findall(r"^ +1 Source: gentoo$", text_path.read_text(), re.M)
    paras = [p for c in text.chapters for p in c.paragraphs]
    before = paras[paras.index("(I've added the line numbers.)") - 1]
    assert ("Source: gentoo" in before) if code == "read" else (before == "Code example."), before


def test_a_text_with_a_contents_listing_per_chapter_reads_the_books_contents():
    """debian-reference's text lists each chapter's sections under its heading: chapters are the
    book's contents' top entries (read here with a regular expression), never a chapter's sections."""
    path = debian_file("debian-reference-en", "usr/share/debian-reference/debian-reference.en.txt.gz")
    raw = path.read_text()
    listing = raw[raw.index("Table of Contents"):raw.index("List of Tables")]
    top = [ln for ln in listing.splitlines()[1:] if ln.strip() and not ln.startswith(" ")]
    book = load_book(path)
    assert len(top) >= 10
    assert [title_key(c.title) for c in book.chapters[1:]] == [title_key(t) for t in top]
    # Its tables, drawn with "+---+" and "|", are read row by row, a wrapped cell's lines joined.
    spoken = [p for c in book.chapters for p in c.paragraphs]
    assert "+----" in raw and not any(p.startswith(("+--", "|")) for p in spoken)
    assert any(p.startswith("doc-debian, ") and "Debian Project documentation, (Debian FAQ) and other documents" in p
               for p in spoken)


def _typed_pdf(path, pages):
    """Write a PDF whose pages hold the given lines, (x, y from the top, size, text), in Helvetica, by
    PDFium itself: each line one text object, so a wide gap between two objects on a baseline is a gap."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument.new()
    for lines in pages:
        page = doc.new_page(612, 792)
        for x, y, size, text in lines:
            obj = raw.FPDFPageObj_NewTextObj(doc.raw, b"Helvetica", ctypes.c_float(size))
            buf = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
            raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
            raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, 792 - y)
            raw.FPDFPage_InsertObject(page.raw, obj)
        raw.FPDFPage_GenerateContent(page.raw)
    doc.save(str(path))
    return path


_MEADOW = ["The gate stood open all that winter, and the path beyond it ran down to the river",
           "where the old ferryman kept his boat tied to a post of grey oak. Nobody crossed",
           "after dark, for the water rose quickly and the lantern on the far bank had long",
           "since gone out. In the spring the children came back to the meadow again."]


def test_a_page_cut_from_a_book_reads_its_text_without_its_running_head(tmp_path):
    # One page printed out of a book: its head (the chapter's name left, the page number right, a
    # margin's gap above the text) repeats on no other page, yet its shape says what it is.
    body = [(72, 110 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    cut = _typed_pdf(tmp_path / "page.pdf", [[(72, 60, 10, "Chapter 4: The Garden Wall"), (530, 60, 10, "27")] + body])
    text = " ".join(p for c in load_book(cut).chapters for p in c.paragraphs)
    assert "Garden Wall" not in text and "27" not in text
    # A short document's text before its first heading is its text, not a book's front matter.
    assert text.startswith("The gate stood open all that winter") and text.endswith("meadow again.")
    # A document's own first line, a title with a number but no page number set apart, is read.
    titled = _typed_pdf(tmp_path / "doc.pdf", [[(200, 60, 16, "Garden Notes 2024")] + body])
    assert "Garden Notes 2024" in " ".join([c.title for c in load_book(titled).chapters]
                                            + [p for c in load_book(titled).chapters for p in c.paragraphs])


def _linked_pdf(path, pages, links, outline=()):
    """Write a PDF by hand: pages of lines (x, y from the top, text) in Helvetica 11, link annotations
    (page, x0, y0 from the top, x1, y1, target page) going to another page, half by a /Dest, half by a
    GoTo action (as hyperref writes them), and an outline of (title, page[, y from the top]) entries."""
    objs: list[bytes] = []
    n = len(pages)
    page_ids = [4 + 2 * i for i in range(n)]
    annot_ids: dict[int, list[int]] = {}
    extra = 4 + 2 * n
    for k, (p, *_rest) in enumerate(links):
        annot_ids.setdefault(p, []).append(extra + k)
    root = extra + len(links)
    marks = b" /Outlines %d 0 R" % root if outline else b""
    objs.append(b"<< /Type /Catalog /Pages 2 0 R%s >>" % marks)
    objs.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % i for i in page_ids), n))
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, lines in enumerate(pages):
        text = b"".join(b"BT /F1 11 Tf %d %d Td (%s) Tj ET\n" % (x, 792 - y, t.encode("latin-1")) for x, y, t in lines)
        annots = b" ".join(b"%d 0 R" % a for a in annot_ids.get(i, []))
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                    b"/Contents %d 0 R /Annots [%s] >>" % (page_ids[i] + 1, annots))
        objs.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text))
    for k, (p, x0, y0, x1, y1, target) in enumerate(links):
        dest = b"[%d 0 R /XYZ 0 792 0]" % page_ids[target]
        goto = b"/A << /S /GoTo /D %s >>" % dest if k % 2 else b"/Dest %s" % dest
        objs.append(b"<< /Type /Annot /Subtype /Link /Rect [%d %d %d %d] /Border [0 0 0] %s >>"
                    % (x0, 792 - y1, x1, 792 - y0, goto))
    if outline:
        objs.append(b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>"
                    % (root + 1, root + len(outline), len(outline)))
        for k, (title, target, *at) in enumerate(outline):
            near = (b" /Prev %d 0 R" % (root + k) if k else b"") + (
                b" /Next %d 0 R" % (root + k + 2) if k + 1 < len(outline) else b"")
            # The destination's top: the page's top, or the place given (y from the top), as hyperref writes it.
            objs.append(b"<< /Title (%s) /Parent %d 0 R%s /Dest [%d 0 R /XYZ 72 %d 0] >>"
                        % (title.encode("latin-1"), root, near, page_ids[target], 792 - (at[0] if at else 0)))
    return write_pdf(path, objs)


def test_a_run_of_lines_each_wholly_a_link_into_the_book_is_a_listing_not_read(tmp_path):
    # A list of pictures printed without page numbers (pandoc's LaTeX of a web page's list of links):
    # each line is one link to the place in the book; a link inside a sentence covers a part of its line.
    listing = ["The Old Mill at Dawn", "A Heron on the Weir", "The Cottage by the Lock", "Boats Below the Bridge"]
    story = ["The river ran quietly past the mill that morning, and the heron stood", "on the weir as it always did,"
             " watching the water for the silver flash of a fish.", "See The Old Mill at Dawn for the picture.",
             "\xb7 The Lower Meadow", "\xb7 The Ferry Steps", "\xb7 The Orchard Gate"]
    pages = [[(72, 80, "Pictures")] + [(90, 110 + 16 * k, t) for k, t in enumerate(listing)],
             [(72, 80 + 16 * k, t) for k, t in enumerate(story)]]
    links = [(0, 88, 96 + 16 * k, 92 + 7 * len(t), 112 + 16 * k, 1) for k, t in enumerate(listing)]
    links.append((1, 92, 96 + 32, 210, 112 + 32, 1))  # "The Old Mill at Dawn" inside the sentence
    # A bulleted list of links in the text: each line opens with its bullet, outside the link.
    links += [(1, 80, 66 + 16 * k, 200, 82 + 16 * k, 0) for k in range(3, 6)]
    text = " ".join(p for c in load_book(_linked_pdf(tmp_path / "linked.pdf", pages, links)).chapters
                    for p in c.paragraphs)
    assert not any(t in text for t in listing[1:]), text
    assert "watching the water for the silver flash of a fish." in text
    assert "See The Old Mill at Dawn for the picture." in text
    assert all(t in text for t in ("The Lower Meadow", "The Ferry Steps", "The Orchard Gate")), text
    # The same lines with no links are lines like any other: read.
    plain = " ".join(p for c in load_book(_linked_pdf(tmp_path / "plain.pdf", pages, [])).chapters for p in c.paragraphs)
    assert all(t in plain for t in listing), plain


def test_an_outline_entry_with_no_text_under_it_is_said_with_the_next_chapter(tmp_path):
    # A title page set as headings of their own ("OR,", "By", each an outline entry, as pandoc prints a
    # web page's title lines) or a part's title alone on its page: said at the next chapter's start,
    # never dropped; a contents entry is matter, not said.
    story = ["The river ran quietly past the mill that morning, and the heron stood on the weir as it",
             "always did, watching the water for the silver flash of a fish. Nobody in the village could",
             "remember a spring as cold as that one, nor a summer that came so late to the valley."]
    pages = [[(200, 80, "OR, THE HERON OF THE WEIR")], [(200, 80, "By A Miller of the Valley")],
             [(200, 80, "Contents"), (200, 100, "The First Morning"), (200, 116, "The Second Morning")],
             [(72, 80, "The First Morning")] + [(72, 110 + 16 * k, t) for k, t in enumerate(story)],
             [(72, 80, "Part Two: The Lower Valley")], [(72, 80, "Name and Place Index")],
             [(72, 80, "The Second Morning")] + [(72, 110 + 16 * k, t) for k, t in enumerate(story)]]
    outline = [("OR, THE HERON OF THE WEIR", 0), ("By A Miller of the Valley", 1), ("Contents", 2),
               ("The First Morning", 3), ("Part Two: The Lower Valley", 4), ("Name and Place Index", 5),
               ("The Second Morning", 6)]
    book = load_book(_linked_pdf(tmp_path / "titled.pdf", pages, [], outline))
    assert [c.title for c in book.chapters] == ["The First Morning", "The Second Morning"]
    first, second = (" ".join(c.paragraphs) for c in book.chapters)
    assert first.startswith("OR, THE HERON OF THE WEIR") and "By A Miller of the Valley" in first
    assert "Contents" not in first and first.count("The First Morning") == 1
    # A listing's heading whose page was taken out (an index of any name) is not said either.
    assert "Index" not in second
    assert second.startswith("Part Two: The Lower Valley") and second.endswith("so late to the valley.")


def test_a_running_head_of_three_lines_is_not_read(tmp_path):
    # A long book title wraps in the head over three lines (FOP sets it so), on every page, over the text.
    head = [(200, 44, 10, "The Chronicle of the Mill"), (200, 56, 10, "on the River and the Wa-"),
            (200, 68, 10, "ter Meadow, by A. Miller")]
    pages = [head + [(72, 80 + 14 * k, 10, f"Page {n + 1} tells of the {word} at the mill, line {k + 1}.")
                     for k, word in enumerate(("heron", "ferry", "weir", "orchard"))] for n in range(10)]
    text = " ".join(p for c in load_book(_typed_pdf(tmp_path / "headed.pdf", pages)).chapters for p in c.paragraphs)
    assert "Chronicle" not in text and "Meadow, by" not in text and "on the River" not in text
    assert "Page 1 tells of the heron at the mill, line 1." in text
    assert "Page 10 tells of the orchard at the mill, line 4." in text


_HERON = ["The heron stood on the weir as it always did, watching the water for the silver flash of",
          "a fish, and the miller's boy watched the heron from the bank until the bell rang for",
          "supper and the light went out of the sky behind the poplars on the far side of the water."]


def test_a_chapter_starts_where_its_outline_entry_points_on_the_page(tmp_path):
    # The chapter before ends at the top of the page its successor starts on (Texinfo starts an appendix
    # mid-page); the successor's printed heading is not the outline's words, so the destination's place
    # on the page (XYZ's top) says where it starts.
    first = [(72, 80, "The First Morning")] + [(72, 110 + 16 * k, t) for k, t in enumerate(_HERON)]
    tail = [(72, 80 + 16 * k, t) for k, t in enumerate(_MEADOW)]
    second = [(72, 220, "Notes Kept at the Mill")] + [(72, 250 + 16 * k, t) for k, t in enumerate(_HERON)]
    outline = [("The First Morning", 0), ("Second Morning", 1, 208)]
    book = load_book(_linked_pdf(tmp_path / "mid.pdf", [first, tail + second], [], outline))
    assert [c.title for c in book.chapters] == ["The First Morning", "Second Morning"]
    one, two = (" ".join(c.paragraphs) for c in book.chapters)
    assert one.endswith("the meadow again."), one
    # (A chapter's first paragraph is its title, said once.)
    assert two.startswith("Second Morning Notes Kept at the Mill") and "ferryman" not in two, two
    # A long title wrapped over three lines at that place is the heading: said once, as the outline's title.
    wrapped = [(72, 220, "Notes Kept at"), (72, 236, "the Mill by the"), (72, 252, "Ferryman's Daughter")]
    second = wrapped + [(72, 280 + 16 * k, t) for k, t in enumerate(_HERON)]
    outline = [("The First Morning", 0), ("Notes Kept at the Mill by the Ferryman's Daughter", 1, 208)]
    book = load_book(_linked_pdf(tmp_path / "wrapped.pdf", [first, tail + second], [], outline))
    two = " ".join(book.chapters[1].paragraphs)
    assert two.startswith("Notes Kept at the Mill by the Ferryman's Daughter The heron stood"), two


def test_a_heading_printed_with_its_division_word_is_the_outline_entry(tmp_path):
    # Texinfo's outline says "A Suggested Replies" where the page prints "Appendix A Suggested Replies":
    # the chapter starts at that heading, which is said once, as the outline's title.
    first = [(72, 80, "1 The First Morning")] + [(72, 110 + 16 * k, t) for k, t in enumerate(_HERON)]
    tail = [(72, 80 + 16 * k, t) for k, t in enumerate(_MEADOW)]
    second = [(72, 220, "Appendix A Suggested Replies")] + [(72, 250 + 16 * k, t) for k, t in enumerate(_HERON)]
    outline = [("1 The First Morning", 0), ("A Suggested Replies", 1)]  # the page's top: no place named
    book = load_book(_linked_pdf(tmp_path / "appendix.pdf", [first, tail + second], [], outline))
    one, two = (" ".join(c.paragraphs) for c in book.chapters)
    assert one.endswith("the meadow again."), one
    assert two.startswith("A Suggested Replies The heron stood") and "Appendix" not in two, two


def test_a_definition_header_says_its_category_first(tmp_path):
    # Texinfo's PDF sets a definition's category flush right in brackets ("frob (x)   [Function]");
    # its HTML edition and a listener say it first: "Function: frob (x)".
    lines = [(72, 80 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    lines += [(90, 150, 10, "int frob_widget (int count)"), (480, 150, 10, "[Function]"),
              (108, 164, 10, "Frobs the widget count times and returns the number of widgets frobbed."),
              (90, 184, 10, "frob_level"), (470, 184, 10, "[User Option]"),
              (108, 198, 10, "How hard each widget is frobbed, from one to ten.")]
    text = " ".join(p for c in load_book(_typed_pdf(tmp_path / "defs.pdf", [lines])).chapters for p in c.paragraphs)
    assert "Function: int frob_widget (int count)" in text, text
    assert "User Option: frob_level" in text and "[" not in text, text


def test_a_title_pages_authors_with_addresses_or_et_al_are_the_author(tmp_path):
    # Texinfo's title page sets each @author on its own line with an address after the name; a book of
    # many hands prints "et al." after the first. The names are the author, the addresses are not.
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    two = [(150, 120, 24, "The Widget Frobbing Manual"), (300, 200, 12, "Ann Writer (ann@example.org)"),
           (300, 216, 12, "Bo Maker (bo@example.org)")]
    book = load_book(_typed_pdf(tmp_path / "two.pdf", [two, body, body, body, body, body, body]))
    assert (book.title, book.author) == ("The Widget Frobbing Manual", "Ann Writer and Bo Maker")
    many = [(150, 120, 24, "The Widget Frobbing Manual"), (300, 200, 12, "Ann Writer, et al."),
            (300, 216, 12, "last updated May 1, 2020")]
    book = load_book(_typed_pdf(tmp_path / "many.pdf", [many, body, body, body, body, body, body]))
    assert book.author == "Ann Writer, et al."
    # Or with the institution after each name: the names are the authors.
    placed = [(150, 120, 24, "The Widget Frobbing Manual"), (300, 200, 12, "Ann Writer, Riverside University"),
              (300, 216, 12, "Bo Maker, Free Mill Foundation")]
    book = load_book(_typed_pdf(tmp_path / "placed.pdf", [placed, body, body, body, body, body, body]))
    assert book.author == "Ann Writer and Bo Maker", book.author


def test_a_pdf_whose_pages_print_no_title_is_not_named_by_its_first_chapter(tmp_path):
    # No metadata, no title on the first pages (a blank title page, a contents page): the outline's first
    # entry is a chapter (here a question of a FAQ), never the book's name; the file's name is used.
    pages = [[(72, 80, "Contents")], [(72, 80, "Why does the mill wheel stop in winter?")]
             + [(72, 110 + 16 * k, t) for k, t in enumerate(_HERON)],
             [(72, 80, "Who keeps the ferry?")] + [(72, 110 + 16 * k, t) for k, t in enumerate(_MEADOW)]]
    outline = [("Why does the mill wheel stop in winter?", 1), ("Who keeps the ferry?", 2)]
    book = load_book(_linked_pdf(tmp_path / "mill-faq.pdf", pages, [], outline))
    assert [c.title for c in book.chapters][-2:] == ["Why does the mill wheel stop in winter?", "Who keeps the ferry?"]
    assert book.title == "mill-faq", book.title


def _ocr_pdf(path, pages):
    """Write a PDF like a scan's OCR layer (Tesseract's): every line drawn invisible (text render mode 3)
    in a fixed-pitch font, sizes in whole points; lines (x, y from the top, size, text)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument.new()
    for lines in pages:
        page = doc.new_page(612, 792)
        for x, y, size, text in lines:
            obj = raw.FPDFPageObj_NewTextObj(doc.raw, b"Courier", ctypes.c_float(size))
            buf = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
            raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
            raw.FPDFTextObj_SetTextRenderMode(obj, raw.FPDF_TEXTRENDERMODE_INVISIBLE)
            raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, 792 - y)
            raw.FPDFPage_InsertObject(page.raw, obj)
        raw.FPDFPage_GenerateContent(page.raw)
    doc.save(str(path))
    return path


def test_a_scans_ocr_layer_is_prose_and_its_chapter_numbers_are_headings(tmp_path):
    # An OCR layer is drawn invisible in a fixed-pitch font that says nothing of the print's type: its
    # lines are prose, not code; and its sizes are whole points measured from the picture, so a chapter's
    # number set larger in print comes out one point above the body: it is a heading all the same.
    story = _MEADOW + _HERON
    pages = []
    for n, numeral in enumerate(("I", "II", "III")):
        # Each chapter starts below the end of the one before, its number on a line of its own.
        pages.append([(72, 80 + 18 * k, 13, t) for k, t in enumerate(story[:3])] + [(72, 260 - 20 * n, 14, numeral)]
                     + [(72, 290 - 20 * n + 18 * k, 13, t) for k, t in enumerate(story)])
        pages.append([(72, 80 + 18 * k, 13, t) for k, t in enumerate(story[::-1])])
    # A line inside a paragraph whose size the OCR misread as a heading's: at a line's distance from the
    # line above, it is text.
    pages[1][3] = (72, 80 + 18 * 3, 14, pages[1][3][3])
    book = load_book(_ocr_pdf(tmp_path / "scan.pdf", pages))
    assert [c.title for c in book.chapters][-3:] == ["I", "II", "III"], [c.title for c in book.chapters]
    text = " ".join(book.chapters[-3].paragraphs)
    assert "The gate stood open all that winter" in text and "Code example" not in text, text


def test_a_heading_below_a_documents_first_paragraph_is_not_its_author(tmp_path):
    # A short document (Word's PDF export) opens with its title and a paragraph; a bold heading further
    # down ("Section With Centred Text", capitalised like names) is a heading, not the author.
    page = [(72, 80, 16, "Mill Report"), (72, 110, 11, "This quarterly report describes the state of the mill"),
            (72, 124, 11, "and the weir after the winter floods, with the repairs still to do."),
            (72, 150, 13, "Section With Centred Text"), (72, 170, 11, "The wheel turns again since March.")]
    book = load_book(_typed_pdf(tmp_path / "report.pdf", [page]))
    assert book.title == "Mill Report" and book.author in ("", "Unknown"), (book.title, book.author)
    # An author's line labelled as such is the author wherever it stands (a Gutenberg header, after its
    # licence paragraph): the name without its label.
    labelled = page[:3] + [(72, 150, 11, "Title: Mill Report"), (72, 164, 11, "Author: Ann Writer")]
    book = load_book(_typed_pdf(tmp_path / "labelled.pdf", [labelled]))
    assert book.author == "Ann Writer", book.author


def test_a_word_set_smaller_and_higher_keeps_its_last_letter(tmp_path):
    # An OCR layer sets each word in its own size and baseline: a word smaller and higher than the line's
    # other words is text, read whole; its last letter alone is not taken for a note marker ("y", like a
    # footnote's "a"). A raised small "2" after a word is still a marker, not read.
    lines = [(72, 80 + 14 * k, 11, t) for k, t in enumerate(_MEADOW)]
    lines += [(72, 160, 11, "The river ran"), (140, 157, 8, "quietly"), (172, 160, 11, "past the mill."),
              (250, 157, 7, "2"), (72, 174, 11, "The heron stood on the weir as it always did, all that spring.")]
    text = " ".join(p for c in load_book(_typed_pdf(tmp_path / "raised.pdf", [lines])).chapters for p in c.paragraphs)
    assert "The river ran quietly past the mill." in text, text
    assert "mill.2" not in text and "mill. 2" not in text, text


def test_a_contents_heading_over_a_listing_of_links_goes_with_the_listing(tmp_path):
    # A part's own list of questions, each line a link to its answer, under its "Table of Contents" heading:
    # the listing is left out, and its heading with it (said alone it announces nothing).
    listing = ["Why does the mill wheel turn?", "Where does the river rise?", "Who keeps the weir?"]
    story = ["The river ran quietly past the mill that morning, and the heron stood", "on the weir as it always did,"
             " watching the water for the silver flash of a fish."]
    pages = [[(72, 80, "Questions About the Mill"), (72, 110, "Table of Contents")]
             + [(90, 130 + 16 * k, t) for k, t in enumerate(listing)],
             [(72, 80 + 16 * k, t) for k, t in enumerate(story)]]
    links = [(0, 88, 116 + 16 * k, 92 + 6 * len(t), 132 + 16 * k, 1) for k, t in enumerate(listing)]
    text = " ".join(p for c in load_book(_linked_pdf(tmp_path / "questions.pdf", pages, links)).chapters
                    for p in c.paragraphs)
    assert "Table of Contents" not in text and "Who keeps the weir?" not in text, text
    assert "watching the water for the silver flash of a fish." in text, text


def test_a_chapter_listing_its_sections_as_bullets_starts_the_next_at_its_heading_not_at_its_bullet(tmp_path):
    # A short chapter that lists the chapters of its part as bullets, the first of them starting on the same
    # page: the next chapter starts at its heading, and the list stays the first chapter's text.
    story = ["The river ran quietly past the mill that morning, and the heron stood on the weir as it",
             "always did, watching the water for the silver flash of a fish. Nobody in the village could"]
    page = ([(72, 80, "Garden Work"), (90, 110, "\xb7 Spades and Rakes"), (90, 126, "\xb7 Shears and Knives"),
             (72, 160, "Spades and Rakes")] + [(72, 190 + 16 * k, t) for k, t in enumerate(story)])
    more = [(72, 80, "Shears and Knives")] + [(72, 110 + 16 * k, t) for k, t in enumerate(story)]
    outline = [("Garden Work", 0, 70), ("Spades and Rakes", 0, 150), ("Shears and Knives", 1)]
    book = load_book(_linked_pdf(tmp_path / "garden.pdf", [page, more], [], outline))
    assert [c.title for c in book.chapters] == ["Garden Work", "Spades and Rakes", "Shears and Knives"], \
        [c.title for c in book.chapters]
    assert "Shears and Knives" in " ".join(book.chapters[0].paragraphs)
    assert " ".join(book.chapters[1].paragraphs[1:]).startswith("The river ran quietly")


def test_a_chapters_bulleted_list_of_the_chapters_after_it_is_read(tmp_path):
    # A part's opening chapter lists the chapters that follow as bullets: its own text, as its HTML edition
    # prints it, not a contents listing (a contents sets entries bare, or each line wholly a link).
    story = ["The river ran quietly past the mill that morning, and the heron stood on the weir as it",
             "always did, watching the water for the silver flash of a fish. Nobody in the village could"]
    names = ["Spades and Rakes", "Shears and Knives", "Barrows and Carts"]
    pages = [[(72, 80, "Garden Work")] + [(90, 110 + 16 * k, f"\xb7 {t}") for k, t in enumerate(names)]]
    pages += [[(72, 80, t)] + [(72, 110 + 16 * k, s) for k, s in enumerate(story)] for t in names]
    outline = [("Garden Work", 0)] + [(t, k + 1) for k, t in enumerate(names)]
    book = load_book(_linked_pdf(tmp_path / "garden.pdf", pages, [], outline))
    assert [c.title for c in book.chapters] == ["Garden Work"] + names, [c.title for c in book.chapters]
    first = " ".join(book.chapters[0].paragraphs)
    assert all(t in first for t in names), first


def test_a_chapter_of_number_listings_is_read_an_index_of_terms_and_pages_is_not(tmp_path):
    # A program's output printed as rows of numbers ("[ [ 1, 0, 1 ], ...") has a comma and a number every
    # word or two, as an index's page references do; but an index's numbers follow its terms.
    rows = [f"[ [ {k % 2}, 1, 0, {k % 3} ], [ 0, 1, {k % 4}, 0 ], [ 1, 1, 0, 1 ] ]," for k in range(14)]
    output = [(72, 80, "Reading the Tables")] + [(72, 110 + 14 * k, t) for k, t in enumerate(rows)]
    terms = ["apples, 12, 40", "baskets, 3, 17-19", "cider presses, 22, 58", "ferries, 5, 9, 31", "harvest, 14, 77",
             "ladders, 8, 60", "millstones, 2, 44", "orchards, 1, 12, 90", "pruning, 33, 35", "wagons, 7, 81"]
    # A book, not a short document (whose matter is read): six pages of text before them.
    text = [[(72, 80, f"Morning {n}")] + [(72, 110 + 16 * k, t) for k, t in enumerate(_HERON)] for n in range(6)]
    outline = [(f"Morning {n}", n) for n in range(6)] + [("Reading the Tables", 6), ("Evening", 7)]
    book = load_book(_linked_pdf(tmp_path / "numbers.pdf", text + [output, [(72, 80, "Evening")] + text[0][1:]], [],
                                 outline))
    assert [c.title for c in book.chapters][-3:] == ["Morning 5", "Reading the Tables", "Evening"]
    assert "[ [ 1, 1, 0, 1 ], [ 0, 1, 1, 0 ]" in " ".join(book.chapters[-2].paragraphs)
    # An index of terms and pages, with no index's title, is still one (left out as matter).
    from app.book.formats.pdf import _is_index

    assert _is_index(tuple(terms * 2)) and not _is_index(tuple(rows))


def _nested_outline_pdf(path, pages, outline):
    """Write a PDF of pages of lines (x, y from the top, size, text) in Helvetica and an outline of
    (title, page, y from the top, [(title, page, y), ...] children) entries, each pointing at its place (XYZ)."""
    n = len(pages)
    page_ids = [4 + 2 * i for i in range(n)]
    root = 4 + 2 * n
    objs = [b"<< /Type /Catalog /Pages 2 0 R /Outlines %d 0 R >>" % root,
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % i for i in page_ids), n),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for i, lines in enumerate(pages):
        text = b"".join(b"BT /F1 %d Tf %d %d Td (%s) Tj ET\n" % (size, x, 792 - y, t.encode("latin-1"))
                        for x, y, size, t in lines)
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                    b"/Contents %d 0 R >>" % (page_ids[i] + 1))
        objs.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text))
    items: list = []  # (title, page, y, parent id, kids' ids)
    top_ids = []

    def add(entries, parent):
        ids = []
        for title, target, y, *kids in entries:
            me = root + 1 + len(items)
            items.append([title, target, y, parent, []])
            ids.append(me)
            if kids and kids[0]:
                items[me - root - 1][4] = add(kids[0], me)
        return ids

    top_ids = add(outline, root)
    objs.append(b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (top_ids[0], top_ids[-1], len(top_ids)))
    siblings: dict[int, list[int]] = {root: top_ids}
    for k, (_t, _p, _y, _parent, kids) in enumerate(items):
        if kids:
            siblings[root + 1 + k] = kids
    for k, (title, target, y, parent, kids) in enumerate(items):
        me, group = root + 1 + k, siblings[parent]
        at = group.index(me)
        near = (b" /Prev %d 0 R" % group[at - 1] if at else b"") + (
            b" /Next %d 0 R" % group[at + 1] if at + 1 < len(group) else b"")
        down = b" /First %d 0 R /Last %d 0 R /Count %d" % (kids[0], kids[-1], len(kids)) if kids else b""
        objs.append(b"<< /Title (%s) /Parent %d 0 R%s%s /Dest [%d 0 R /XYZ 72 %d 0] >>"
                    % (title.encode("latin-1"), parent, near, down, page_ids[target], 792 - y))
    return write_pdf(path, objs)


def _story(y, lines, size=10):
    return [(72, y + 14 * k, size, t) for k, t in enumerate(lines)]


def test_a_contents_entry_holding_the_sections_gives_them_as_chapters(tmp_path):
    # jadetex's outline of an article: "Table of Contents" at the top level holds the article's sections, the
    # appendices beside it. The sections are the chapters; the contents entry alone would leave them out as matter.
    pages = [[(72, 80, 14, "Table of Contents"), (90, 110, 10, "The Mill"), (90, 124, 10, "The Weir")]]
    pages += [[(72, 80, 14, f"Part {n} Notes")] for n in range(4)]  # pages enough to be a book, not a document
    pages += [[(72, 80, 14, "The Mill")] + _story(110, _HERON), [(72, 80, 14, "The Weir")] + _story(110, _MEADOW),
              [(72, 80, 14, "A. Tools")] + _story(110, _HERON)]
    outline = [("Table of Contents", 0, 70, [("The Mill", 5, 70), ("The Weir", 6, 70)]), ("A. Tools", 7, 70)]
    book = load_book(_nested_outline_pdf(tmp_path / "article.pdf", pages, outline))
    assert [c.title for c in book.chapters][-3:] == ["The Mill", "The Weir", "A. Tools"]
    assert "ferryman" in " ".join(book.chapters[-2].paragraphs)


def test_a_heading_of_the_entrys_words_above_its_destination_is_another_heading(tmp_path):
    # The chapter before ends with a section of the next chapter's name ("Tools" under "The Mill"), on the page
    # where that chapter starts lower down: the chapter starts at its destination's heading, not the section's.
    pages = [[(72, 80, 14, "The Mill")] + _story(110, _MEADOW),
             [(72, 80, 12, "Tools")] + _story(100, _HERON) + [(72, 200, 14, "Tools")] + _story(230, _MEADOW)]
    pages += [[(72, 80, 14, f"More on Page {n}")] + _story(110, _HERON) for n in range(5)]
    outline = [("The Mill", 0, 70, []), ("Tools", 1, 200, []), ("More on Page 0", 2, 70, [])]
    book = load_book(_nested_outline_pdf(tmp_path / "tools.pdf", pages, outline))
    mill, tools = (" ".join(c.paragraphs) for c in book.chapters[:2])
    assert "heron stood" in mill and "heron stood" not in tools, (mill, tools)
    assert tools.endswith("the meadow again."), tools
